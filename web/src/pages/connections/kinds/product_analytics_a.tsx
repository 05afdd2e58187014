// `product_analytics_a` (PostHog): connected with a personal API key, a project id and an
// optional host; its card edits the event maps and replaces the key. Each daily run reads
// sessions by entry page, mapped events as funnel stages, friction events per page, and samples
// recordings as playback links.

import { STAGES } from '../../funnel/types';
import type { KindModule } from '../kind-module';
import type { NamedEventMapWords } from '../named-event-maps';
import { useEventMapsPanel } from '../named-event-maps';
import { kindPath } from '../words';
import { ProductAnalyticsAForm } from './product_analytics_a/product-analytics-a-form';

/** PostHog's event maps: `{event, stage}`, any stage, at most 50 (the server's `MAX_MAPS`). */
const EVENT_MAPS: NamedEventMapWords = {
  field: 'event',
  label: 'PostHog event',
  placeholder: 'signed_up',
  stages: STAGES,
  maxMaps: 50,
  intro: (
    <>
      Each PostHog event you map counts, per UTC day, as the stage you choose (<code>signed_up</code> as signups, for
      example). Map each event once.
    </>
  ),
};

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
    const maps = useEventMapsPanel({
      path: `/products/${encodeURIComponent(connection.product_slug)}/connections/${kindPath('product_analytics_a')}/event-maps`,
      headingId,
      maps: connection.event_maps,
      words: EVENT_MAPS,
      onSaved: onChanged,
    });
    return {
      actions: maps.toggle,
      disconnect:
        'Payback deletes the stored PostHog key and stops reading this project. Sessions, stage counts and recordings already read stay; connect again at any time to resume.',
      panels: (
        <>
          {maps.panel}
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
