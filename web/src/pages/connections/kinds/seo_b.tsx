// `seo_b` (Ahrefs): connected with the user's API key and the domain to follow; its card
// replaces the key. Each weekly run stores the domain's rating, backlinks and top organic
// keywords, which the demand report shows as authority and ranks.

import type { KindModule } from '../kind-module';
import { SeoBForm } from './seo_b/seo-b-form';

export const seo_b: KindModule = {
  kind: 'seo_b',
  offer: {
    render: ({ slug, onConnected }) => (
      <article aria-labelledby="connect-seo-b-title" data-offer="seo_b">
        <h2 id="connect-seo-b-title">Connect Ahrefs</h2>
        <p>
          Your domain's Domain Rating, live backlinks and referring domains, and the positions and search volumes of
          its top 100 organic keywords in the US, read once a week. Each read uses Ahrefs API units of your plan, so it
          never runs on demand; Payback only reads.
        </p>
        <SeoBForm slug={slug} replacing={false} onConnected={onConnected} />
      </article>
    ),
  },
  useCard: ({ connection, onChanged }) => {
    const domain = connection.config?.domain;
    return {
      disconnect:
        'Payback deletes the stored Ahrefs key and stops reading this domain. Ratings and ranks already read stay in your reports; connect again at any time to resume.',
      panels: (
        <details class="replace-key">
          <summary>Replace key</summary>
          <SeoBForm
            slug={connection.product_slug}
            replacing
            currentDomain={typeof domain === 'string' ? domain : undefined}
            onConnected={onChanged}
          />
        </details>
      ),
    };
  },
  configLines: (config) => (typeof config.domain === 'string' ? [`Ahrefs domain ${config.domain}`] : []),
};
