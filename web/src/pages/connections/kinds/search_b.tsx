// `search_b` (Bing Webmaster Tools): connected with the user's API key and one of their sites;
// its card replaces the key. Search clicks and impressions per query land in the reports' search
// columns.

import type { KindModule } from '../kind-module';
import { SearchBForm } from './search_b/search-b-form';

export const search_b: KindModule = {
  kind: 'search_b',
  offer: {
    render: ({ slug, onConnected }) => (
      <article aria-labelledby="connect-search-b-title" data-offer="search_b">
        <h2 id="connect-search-b-title">Connect Bing Webmaster Tools</h2>
        <p>
          Clicks and impressions of your site in Bing, per search query, read daily. Payback only reads them: nothing
          is submitted to Bing.
        </p>
        <SearchBForm slug={slug} replacing={false} onConnected={onConnected} />
      </article>
    ),
  },
  useCard: ({ connection, onChanged }) => {
    const site = connection.config?.site_url;
    return {
      disconnect:
        'Payback deletes the stored Bing key and stops reading this site. Search data already read stays in your reports; connect again at any time to resume.',
      panels: (
        <details class="replace-key">
          <summary>Replace key</summary>
          <SearchBForm
            slug={connection.product_slug}
            replacing
            currentSite={typeof site === 'string' ? site : undefined}
            onConnected={onChanged}
          />
        </details>
      ),
    };
  },
  configLines: (config) => (typeof config.site_url === 'string' ? [`Bing site ${config.site_url}`] : []),
};
