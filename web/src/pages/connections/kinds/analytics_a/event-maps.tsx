// The Google Analytics connection's event maps: which GA4 events count as which funnel stage
// (`POST /products/{slug}/connections/analytics-a/event-maps`, replacing every map). One row
// per event: its name as GA4 records it and the stage; `visit` and `engaged` are not offered,
// since the property's sessions count them. Saving re-reads the inventory, so the card shows the
// stored maps.

import { useCallback, useId, useState } from 'preact/hooks';
import { api } from '../../../../api';
import { useAction } from '../../../../ui/use-api';
import { STAGES } from '../../../funnel/types';
import { kindPath } from '../../words';

/** One map as the API reads and answers it. */
export interface AnalyticsEventMap {
  event_name: string;
  stage: string;
}

interface EventMapsSaved {
  ok: boolean;
  event_maps: AnalyticsEventMap[];
}

/** The stages an event may count as: not the two the sessions count. */
const EVENT_STAGES = STAGES.filter((stage) => stage !== 'visit' && stage !== 'engaged');

/** The stored maps of a connection's `event_maps`, whatever it holds. */
export function storedMaps(maps: unknown): AnalyticsEventMap[] {
  if (!Array.isArray(maps)) return [];
  return maps.filter(
    (map): map is AnalyticsEventMap =>
      typeof map === 'object' && map !== null && typeof map.event_name === 'string' && typeof map.stage === 'string',
  );
}

export function AnalyticsEventMaps({
  slug,
  id,
  saved,
  onSaved,
}: {
  slug: string;
  /** The panel's id, for the card's toggle (`aria-controls`). */
  id: string;
  saved: AnalyticsEventMap[];
  onSaved: () => void;
}) {
  const baseId = useId();
  const [draft, setDraft] = useState<AnalyticsEventMap[]>(saved);
  const [done, setDone] = useState(false);
  const save = useAction(
    useCallback(
      (maps: AnalyticsEventMap[]) =>
        api.post<EventMapsSaved>(
          `/products/${encodeURIComponent(slug)}/connections/${kindPath('analytics_a')}/event-maps`,
          { event_maps: maps },
        ),
      [slug],
    ),
  );
  const edit = (index: number, change: Partial<AnalyticsEventMap>) => {
    setDone(false);
    setDraft(draft.map((map, at) => (at === index ? { ...map, ...change } : map)));
  };

  return (
    <section class="analytics-event-maps" id={id} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Event maps</h3>
      <p class="muted">
        Each GA4 event you map counts, per day, as the stage you choose (a sign_up event as signups, for example).
        Visits and engaged sessions come from the property's sessions.
      </p>
      {draft.length === 0 && (
        <p class="muted" data-maps="empty">
          No events mapped.
        </p>
      )}
      {draft.map((map, index) => (
        <div role="group" class="event-map-line" key={index} data-map-row={index} aria-label={`Map ${index + 1}`}>
          <label for={`${baseId}-name-${index}`}>GA4 event name</label>
          <input
            id={`${baseId}-name-${index}`}
            name="event_name"
            spellcheck={false}
            value={map.event_name}
            disabled={save.busy}
            onInput={(event) => edit(index, { event_name: (event.currentTarget as HTMLInputElement).value })}
          />
          <label for={`${baseId}-stage-${index}`}>Stage</label>
          <select
            id={`${baseId}-stage-${index}`}
            name="stage"
            value={map.stage}
            disabled={save.busy}
            onChange={(event) => edit(index, { stage: (event.currentTarget as HTMLSelectElement).value })}
          >
            {EVENT_STAGES.map((stage) => (
              <option key={stage} value={stage}>
                {stage}
              </option>
            ))}
          </select>
          <button
            type="button"
            class="outline secondary small"
            disabled={save.busy}
            aria-label={`Remove map ${index + 1}`}
            onClick={() => {
              setDone(false);
              setDraft(draft.filter((_, at) => at !== index));
            }}
          >
            Remove
          </button>
        </div>
      ))}
      <div class="row-actions">
        <button
          type="button"
          class="outline small"
          disabled={save.busy}
          onClick={() => {
            setDone(false);
            setDraft([...draft, { event_name: '', stage: 'signup' }]);
          }}
        >
          Add an event
        </button>
        <button
          type="button"
          class="small"
          disabled={save.busy}
          onClick={async () => {
            const answer = await save.run(draft);
            if (answer) {
              setDraft(answer.event_maps);
              setDone(true);
              onSaved();
            }
          }}
        >
          Save event maps
        </button>
      </div>
      {save.error && (
        <p role="alert" class="error-note">
          {save.error}
        </p>
      )}
      {done && (
        <p role="status" class="trend-up" data-maps="saved">
          Event maps saved. The next sync reads them.
        </p>
      )}
    </section>
  );
}
