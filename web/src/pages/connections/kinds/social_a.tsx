// `social_a` (a Facebook page and its linked Instagram account): through the social-network
// grant (with Meta ads, in one sign-in) or a page token; its card can sign in to Meta again or
// take a new token.

import type { KindModule } from '../kind-module';
import { META_OFFER, MetaReconnect, SOCIAL_GRANT } from '../social-connect';
import { PageKeyForm } from '../social-key-forms';
import { configText, socialLines } from '../words';

export const social_a: KindModule = {
  kind: 'social_a',
  grant: {
    provider: SOCIAL_GRANT,
    purpose: 'daily followers, reach and engagement of a page and its linked Instagram account, and its recent posts',
    noun: 'page',
    choice: 'pages',
  },
  offer: META_OFFER,
  tokenForm: ({ slug, onConnected }) => (
    <PageKeyForm slug={slug} kind="social_a" replacing={false} onConnected={onConnected} />
  ),
  useCard: ({ connection, onChanged }) => ({
    disconnect:
      'Payback stops reading this page. Unless the Meta ads connection uses the same Meta token, Payback removes its permissions at Meta and deletes the stored token. Snapshots and posts already read stay in your reports.',
    panels: (
      <MetaReconnect module={social_a} connection={connection}>
        <PageKeyForm
          slug={connection.product_slug}
          kind="social_a"
          replacing
          currentPageId={configText(connection, 'page_id')}
          onConnected={onChanged}
        />
      </MetaReconnect>
    ),
  }),
  configLines: (config) => socialLines(config, { campaignFilter: false, network: 'Meta' }),
};
