// The PostHog connection's event maps: which PostHog events count as which funnel stage
// (`POST /products/{slug}/connections/product-analytics-a/event-maps`, `{event_maps: [{event,
// stage}]}`, replacing every map). One row per event, as PostHog records its name. The shared
// editor pieces do the rest: the event is a `ColumnInput`, and a refusal naming one map
// (`event_maps[1].event: ...`, read by `mapError`) is shown inside that map, others under Save.

import { useCallback, useEffect, useId, useRef, useState } from 'preact/hooks';
import { api } from '../../../../api';
import { ErrorNote } from '../../../../ui/states';
import { useAction } from '../../../../ui/use-api';
import { STAGES } from '../../../funnel/types';
import { ColumnInput } from '../../column-input';
import { mapError } from '../../event-map-editor';
import type { MapError } from '../../event-map-row';
import { kindPath } from '../../words';

/** One map as the API reads and answers it. */
export interface ProductEventMap {
  event: string;
  stage: string;
}

interface EventMapsSaved {
  ok: boolean;
  event_maps: ProductEventMap[];
}

/** A map as the editor holds it: `key` keeps a row's inputs its own while others are removed. */
interface MapDraft extends ProductEventMap {
  key: number;
}

/** The server's limit on maps per connection (`MAX_MAPS`). */
const MAX_MAPS = 50;

/** The stored maps of a connection's `event_maps`, whatever it holds (null: none stored). */
export function storedMaps(maps: unknown): ProductEventMap[] {
  if (!Array.isArray(maps)) return [];
  return maps.flatMap((map: unknown) => {
    if (typeof map !== 'object' || map === null) return [];
    const { event, stage } = map as Record<string, unknown>;
    return typeof event === 'string' && typeof stage === 'string' ? [{ event, stage }] : [];
  });
}

export function ProductEventMaps({
  slug,
  id,
  stored,
  onSaved,
}: {
  slug: string;
  /** The panel's id, for the card's toggle (`aria-controls`). */
  id: string;
  stored: ProductEventMap[];
  /** Re-reads the inventory after a save. */
  onSaved: () => void;
}) {
  const baseId = useId();
  const nextKey = useRef(0);
  const drafted = useCallback(
    (maps: ProductEventMap[]) => maps.map((map) => ({ ...map, key: nextKey.current++ })),
    [],
  );
  const storedText = JSON.stringify(stored);
  const [drafts, setDrafts] = useState<MapDraft[]>(() => drafted(stored));
  const [saved, setSaved] = useState<string | null>(null);
  // Maps stored by a save (or by someone else) replace the draft; a re-read with the same maps does not.
  useEffect(() => setDrafts(drafted(JSON.parse(storedText) as ProductEventMap[])), [storedText, drafted]);

  const save = useAction(
    useCallback(
      (maps: ProductEventMap[]) =>
        api.post<EventMapsSaved>(
          `/products/${encodeURIComponent(slug)}/connections/${kindPath('product_analytics_a')}/event-maps`,
          { event_maps: maps },
        ),
      [slug],
    ),
  );
  const located = mapError(save.error, drafts.length);

  const edit = (change: (current: MapDraft[]) => MapDraft[], structural = false) => {
    setSaved(null);
    // Adding or removing maps moves the indexes a refusal named.
    if (structural) save.setError(null);
    setDrafts(change);
  };
  const update = (key: number, change: Partial<ProductEventMap>) =>
    edit((current) => current.map((draft) => (draft.key === key ? { ...draft, ...change } : draft)));

  const submit = async (event: Event) => {
    event.preventDefault();
    setSaved(null);
    const answer = await save.run(drafts.map(({ event: name, stage }) => ({ event: name, stage })));
    if (answer) {
      setDrafts(drafted(answer.event_maps));
      setSaved(savedWords(answer.event_maps.length));
      onSaved();
    }
  };

  return (
    <section class="event-map-editor" id={id} aria-labelledby={`${id}-title`} data-event-maps="posthog">
      <h3 id={`${id}-title`}>Event maps</h3>
      <p class="muted">
        Each PostHog event you map counts, per UTC day, as the stage you choose (<code>signed_up</code> as signups,
        for example). Map each event once.
      </p>
      <form onSubmit={submit} noValidate>
        {drafts.length === 0 && (
          <p class="muted" data-maps="empty">
            No events mapped.
          </p>
        )}
        {drafts.map((draft, index) => (
          <MapLine
            key={draft.key}
            index={index}
            draft={draft}
            selectId={`${baseId}-stage-${draft.key}`}
            busy={save.busy}
            error={located?.index === index ? located.error : null}
            onChange={(change) => update(draft.key, change)}
            onRemove={() => edit((current) => current.filter((other) => other.key !== draft.key), true)}
          />
        ))}
        <div class="row-actions">
          <button
            type="button"
            class="outline small"
            disabled={save.busy || drafts.length >= MAX_MAPS}
            onClick={() => edit((current) => [...current, ...drafted([{ event: '', stage: 'signup' }])], true)}
          >
            Add an event
          </button>
          <button type="submit" class="small" aria-busy={save.busy} disabled={save.busy}>
            Save event maps
          </button>
        </div>
        {!located && <ErrorNote error={save.error} />}
        {saved && (
          <p role="status" class="trend-up" data-maps="saved">
            {saved}
          </p>
        )}
      </form>
    </section>
  );
}

/** What a save stored, and when it shows in the funnel. */
function savedWords(maps: number): string {
  if (maps === 0) return 'Saved: no events are mapped, and the next run counts none.';
  return `Saved ${maps === 1 ? '1 event map' : `${maps} event maps`}. The next run counts them.`;
}

/** One map: the event's name, its stage, and its removal; the refusal naming it, inside it. */
function MapLine({
  index,
  draft,
  selectId,
  busy,
  error,
  onChange,
  onRemove,
}: {
  index: number;
  draft: ProductEventMap;
  selectId: string;
  busy: boolean;
  error: MapError | null;
  onChange: (change: Partial<ProductEventMap>) => void;
  onRemove: () => void;
}) {
  const number = index + 1;
  return (
    <div role="group" aria-label={`Map ${number}`} data-map-row={index}>
      <div class="map-subrow map-subrow-pair">
        <ColumnInput
          label={`PostHog event ${number}`}
          value={draft.event}
          placeholder="signed_up"
          invalid={error?.field === 'event'}
          onInput={(event) => onChange({ event })}
        />
        <label for={selectId}>
          Stage {number}
          <select
            id={selectId}
            value={draft.stage}
            disabled={busy}
            aria-invalid={error?.field === 'stage' ? true : undefined}
            onChange={(event) => onChange({ stage: (event.currentTarget as HTMLSelectElement).value })}
          >
            {STAGES.map((stage) => (
              <option key={stage} value={stage}>
                {stage}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          class="outline secondary small"
          disabled={busy}
          aria-label={`Remove map ${number}`}
          onClick={onRemove}
        >
          Remove
        </button>
      </div>
      {error && (
        <p role="alert" class="error-note">
          {error.message}
        </p>
      )}
    </div>
  );
}
