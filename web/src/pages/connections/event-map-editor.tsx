// The event maps of a database connection: proposals to start from, the maps as editable rows,
// and saving them, staged or active. A refusal of the server naming one map
// (`event_maps[1].timestamp: must not be empty`) is shown inside that map; others under Save.

import { useCallback, useEffect, useId, useState } from 'preact/hooks';
import { api } from '../../api';
import { ErrorNote } from '../../ui/states';
import { useAction } from '../../ui/use-api';
import type { DatabaseShape, EventMap, EventMapsSaved, TableSummary } from './database-types';
import { emptyDraft, sameMaps, sameTarget, toDraft, toMap } from './event-map-draft';
import type { MapDraft } from './event-map-draft';
import { EventMapRow } from './event-map-row';
import type { MapError } from './event-map-row';
import { MappingSuggestions } from './mapping-suggestions';
import type { Connection } from './types';
import { kindPath, mapCountWords } from './words';

/** The server's limit on maps per connection. */
const MAX_MAPS = 20;

/**
 * `event_maps[1].timestamp: must not be empty` -> map 1, field `timestamp`, the whole message.
 * Any kind's maps endpoint words its refusals so; the product-analytics editor reads them too.
 */
export function mapError(message: string | null, maps: number): { index: number; error: MapError } | null {
  const found = message?.match(/^event_maps\[(\d+)\]\.([^:\s]+):/);
  if (!message || !found) return null;
  const index = Number(found[1]);
  return index < maps ? { index, error: { field: found[2], message } } : null;
}

export function EventMapEditor({
  connection,
  shape,
  onSaved,
}: {
  connection: Connection;
  shape: DatabaseShape;
  /** Re-reads the inventory after a save (maps count, status). */
  onSaved: () => void;
}) {
  const kind = shape.kind;
  const titleId = useId();
  const stored = connection.event_maps ?? [];
  const storedText = JSON.stringify(stored);
  const [drafts, setDrafts] = useState<MapDraft[]>(() => stored.map(toDraft));
  const [tables, setTables] = useState<TableSummary[] | null>(null);
  // Active by default, except for a connection someone staged on purpose with its maps.
  const [activate, setActivate] = useState(connection.status !== 'pending' || stored.length === 0);
  const [saved, setSaved] = useState<string | null>(null);
  // Saved maps (a save, or someone else's) replace the draft; a poll with the same maps does not.
  useEffect(() => setDrafts((JSON.parse(storedText) as EventMap[]).map(toDraft)), [storedText]);

  const save = useAction(
    useCallback(
      (body: { event_maps: EventMap[]; status: 'active' | 'pending' }) =>
        api.post<EventMapsSaved>(
          `/products/${encodeURIComponent(connection.product_slug)}/connections/${kindPath(kind)}/event-maps`,
          body,
        ),
      [connection.product_slug, kind],
    ),
  );
  const located = mapError(save.error, drafts.length);
  const changed = !sameMaps(drafts, stored);
  const words = shape.words;

  const edit = (change: (current: MapDraft[]) => MapDraft[], structural = false) => {
    setSaved(null);
    // Removing or adding maps moves the indexes an error named.
    if (structural) save.setError(null);
    setDrafts(change);
  };
  const add = (maps: EventMap[]) =>
    edit((current) => {
      const held = current.map(toMap);
      const fresh = maps.filter((map) => !held.some((other) => sameTarget(other, map)));
      return [...current, ...fresh.map(toDraft)].slice(0, MAX_MAPS);
    }, true);

  const submit = async (event: Event) => {
    event.preventDefault();
    setSaved(null);
    const status = activate && drafts.length > 0 ? 'active' : 'pending';
    const answer = await save.run({ event_maps: drafts.map(toMap), status });
    if (answer) {
      const what = mapCountWords(answer.event_maps);
      setSaved(
        status === 'active'
          ? `Saved ${what}; the connection is active. Sync now reads them, or wait for the hourly sync.`
          : `Saved ${what}; the connection stays staged: nothing is read until you activate it.`,
      );
      onSaved();
    }
  };

  return (
    <section class="event-map-editor" aria-labelledby={titleId}>
      <h3 id={titleId}>Event maps</h3>
      <p class="muted">
        Each map reads one {words.table} into one funnel stage. Reads are incremental on the timestamp, and the unique
        key makes a re-read store nothing twice. Map each stage from one source only.
      </p>
      <MappingSuggestions
        slug={connection.product_slug}
        shape={shape}
        inEditor={drafts.map(toMap)}
        onAnswer={(answer) => setTables(answer.schema_summary.tables)}
        onAdd={add}
      />
      <form onSubmit={submit} noValidate>
        {drafts.length === 0 && (
          <p class="muted">No maps yet: add suggestions above, or add a map and fill it in.</p>
        )}
        {drafts.map((draft, index) => (
          <EventMapRow
            key={draft.key}
            index={index}
            draft={draft}
            shape={shape}
            tables={tables}
            error={located?.index === index ? located.error : null}
            onChange={(next) => edit((current) => current.map((d) => (d.key === draft.key ? next : d)))}
            onRemove={() => edit((current) => current.filter((d) => d.key !== draft.key), true)}
          />
        ))}
        <button
          type="button"
          class="outline small"
          disabled={drafts.length >= MAX_MAPS}
          onClick={() => edit((current) => [...current, emptyDraft()], true)}
        >
          Add map
        </button>
        <label class="activate-maps">
          <input
            type="checkbox"
            role="switch"
            checked={activate && drafts.length > 0}
            disabled={drafts.length === 0}
            onChange={(event) => setActivate((event.currentTarget as HTMLInputElement).checked)}
          />
          Activate: read these {words.tables} hourly
        </label>
        <small class="muted">
          {drafts.length === 0
            ? 'Saving no maps stages the connection: nothing is read.'
            : 'Unchecked, the maps are saved and the connection stays staged.'}
        </small>
        <div class="row-actions">
          <button type="submit" aria-busy={save.busy} disabled={save.busy}>
            Save maps
          </button>
          {changed && (
            <button type="button" class="outline secondary" onClick={() => edit(() => stored.map(toDraft), true)}>
              Discard changes
            </button>
          )}
        </div>
        {!located && <ErrorNote error={save.error} />}
        {saved && (
          <p role="status" class="trend-up">
            {saved}
          </p>
        )}
      </form>
    </section>
  );
}
