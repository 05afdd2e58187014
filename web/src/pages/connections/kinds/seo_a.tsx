// `seo_a` (Semrush): connected with the subscription's API key, a domain and a regional
// database; its card replaces the key. Semrush is never called to connect or test (every call
// spends the customer's API units): the weekly run reads the domain's rank, organic keywords and
// traffic and its top keywords' positions, and a refused key shows as that run's error.

import type { KindModule } from '../kind-module';
import { SeoAForm } from './seo_a/seo-a-form';

export const seo_a: KindModule = {
  kind: 'seo_a',
  offer: {
    render: ({ slug, onConnected }) => (
      <article aria-labelledby="connect-seo-a-title" data-offer="seo_a">
        <h2 id="connect-seo-a-title">Connect Semrush</h2>
        <p>
          Your domain's Semrush rank, organic keywords and traffic, and the positions and volumes of its top 100
          keywords, read weekly. Each read spends your Semrush API units, so Payback never calls Semrush just to check
          the key: the first weekly run starts right after connecting and shows any refusal on the card.
        </p>
        <SeoAForm slug={slug} replacing={false} onConnected={onConnected} />
      </article>
    ),
  },
  useCard: ({ connection, onChanged }) => {
    const domain = connection.config?.domain;
    const database = connection.config?.database;
    return {
      disconnect:
        'Payback deletes the stored Semrush key and stops reading this domain. Ranks and keywords already read stay in your reports; connect again at any time to resume.',
      panels: (
        <details class="replace-key">
          <summary>Replace key</summary>
          <SeoAForm
            slug={connection.product_slug}
            replacing
            currentDomain={typeof domain === 'string' ? domain : undefined}
            currentDatabase={typeof database === 'string' ? database : undefined}
            onConnected={onChanged}
          />
        </details>
      ),
    };
  },
  configLines: (config) =>
    typeof config.domain === 'string'
      ? [`Semrush domain ${config.domain} in the ${typeof config.database === 'string' ? config.database : 'us'} database`]
      : [],
};
