// `geo_a` (SE Ranking): connected with the account's Project API key and one of its projects;
// its card replaces the key. AI-search visibility lands in the reports' AI-visibility column,
// with the site audit's health and the tracked keywords' ranks beside it.

import type { KindModule } from '../kind-module';
import { GeoAForm } from './geo_a/geo-a-form';

export const geo_a: KindModule = {
  kind: 'geo_a',
  offer: {
    render: ({ slug, onConnected }) => (
      <article aria-labelledby="connect-geo-a-title" data-offer="geo_a">
        <h2 id="connect-geo-a-title">Connect SE Ranking</h2>
        <p>
          How often AI assistants (ChatGPT, Perplexity, Gemini, Google's AI answers) mention your product, your site
          audit's health score and your tracked keywords' ranks, read daily from one SE Ranking project. Payback only
          reads them: nothing is changed in SE Ranking.
        </p>
        <GeoAForm slug={slug} replacing={false} onConnected={onConnected} />
      </article>
    ),
  },
  useCard: ({ connection, onChanged }) => {
    const company = connection.config?.company_id;
    return {
      disconnect:
        'Payback deletes the stored SE Ranking key and stops reading this project. Figures already read stay in your reports; connect again at any time to resume.',
      panels: (
        <details class="replace-key">
          <summary>Replace key</summary>
          <GeoAForm
            slug={connection.product_slug}
            replacing
            currentCompany={typeof company === 'string' ? company : undefined}
            onConnected={onChanged}
          />
        </details>
      ),
    };
  },
  configLines: (config) =>
    typeof config.company_id === 'string' ? [`SE Ranking project ${config.company_id}`] : [],
};
