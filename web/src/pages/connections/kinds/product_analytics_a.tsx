// `product_analytics_a` (PostHog): connected with a personal API key, a project id and an
// optional host; its card edits the event maps and replaces the key. Each daily run reads
// sessions by entry page, mapped events as funnel stages, friction events per page, and samples
// recordings as playback links.

import { useState } from 'preact/hooks';
import type { KindModule } from '../kind-module';
import { ProductEventMaps, storedMaps } from './product_analytics_a/event-maps';
import { ProductAnalyticsAForm } from './product_analytics_a/product-analytics-a-form';

export const product_analytics_a: KindModule = {
  kind: 'product_analytics_a',
  offer: {
    render: ({ slug, onConnected }) => (
      <article aria-labelledby="connect-product-analytics-a-title" data-offer="product_analytics_a">
        <h2 id="connect-product-analytics-a-title">Connect PostHog</h2>
        <p>
          Sessions by landing page, the events you map to funnel stages, rage clicks, dead clicks and errors per page,
          and links to recent session recordings, read once a day. Payback only reads.
        </p>
        <ProductAnalyticsAForm slug={slug} replacing={false} onConnected={onConnected} />
      </article>
    ),
  },
  useCard: ({ connection, headingId, onChanged }) => {
    const config = connection.config ?? {};
    const [mapsOpen, setMapsOpen] = useState(false);
    const mapsId = `${headingId}-event-maps`;
    return {
      actions: (
        <button
          type="button"
          class="outline small"
          aria-expanded={mapsOpen}
          aria-controls={mapsId}
          onClick={() => setMapsOpen((open) => !open)}
        >
          {mapsOpen ? 'Close event maps' : 'Event maps'}
        </button>
      ),
      disconnect:
        'Payback deletes the stored PostHog key and stops reading this project. Sessions, stage counts and recordings already read stay; connect again at any time to resume.',
      panels: (
        <>
          {mapsOpen && (
            <ProductEventMaps
              slug={connection.product_slug}
              id={mapsId}
              stored={storedMaps(connection.event_maps)}
              onSaved={onChanged}
            />
          )}
          <details class="replace-key">
            <summary>Replace key</summary>
            <ProductAnalyticsAForm
              slug={connection.product_slug}
              replacing
              currentProject={typeof config.project_id === 'string' ? config.project_id : undefined}
              currentHost={typeof config.host === 'string' ? config.host : undefined}
              onConnected={onChanged}
            />
          </details>
        </>
      ),
    };
  },
  configLines: (config) => {
    if (typeof config.project_id !== 'string') return [];
    const host = typeof config.host === 'string' ? ` at ${config.host}` : '';
    return [`PostHog project ${config.project_id}${host}`];
  },
};
