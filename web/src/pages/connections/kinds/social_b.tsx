// `social_b` (an X account): connected with the bearer token of the user's X developer app and
// the account's handle; its card replaces the token. Followers, and the impressions and
// engagement of its posts, land in the social report under the network `x`.

import type { KindModule } from '../kind-module';
import { SocialBForm } from './social_b/social-b-form';

export const social_b: KindModule = {
  kind: 'social_b',
  offer: {
    render: ({ slug, onConnected }) => (
      <article aria-labelledby="connect-social-b-title" data-offer="social_b">
        <h2 id="connect-social-b-title">Connect an X account</h2>
        <p>
          Followers of your X account, and the impressions and engagement of its posts, read daily. Payback only
          reads them: nothing is posted to X.
        </p>
        <SocialBForm slug={slug} replacing={false} onConnected={onConnected} />
      </article>
    ),
  },
  useCard: ({ connection, onChanged }) => {
    const username = connection.config?.username;
    return {
      disconnect:
        'Payback deletes the stored X bearer token and stops reading this account. Followers, impressions and posts already read stay in your reports; connect again at any time to resume.',
      panels: (
        <details class="replace-key">
          <summary>Replace token</summary>
          <SocialBForm
            slug={connection.product_slug}
            replacing
            currentUsername={typeof username === 'string' ? username : undefined}
            onConnected={onChanged}
          />
        </details>
      ),
    };
  },
  configLines: (config) => (typeof config.username === 'string' ? [`X account @${config.username}`] : []),
};
