// The event maps of the analytics kinds, which name vendor events (GA4's `{event_name, stage}`,
// PostHog's `{event, stage}`; `POST /products/{slug}/connections/<kind>/event-maps`, replacing
// every map): one editor for both, the kind giving its words (the field, the label, the stages
// it offers). A refusal naming one map (`event_maps[1].event: ...`, read by `mapError`) is shown
// inside that map, others under Save. The card's "Event maps" toggle and panel come with it
// (`useEventMapsPanel`), so a kind's card adds them in two lines.

import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useId, useRef, useState } from 'preact/hooks';
import { api } from '../../api';
import { ErrorNote } from '../../ui/states';
import { useAction } from '../../ui/use-api';
import { ColumnInput } from './column-input';
import { mapError } from './event-map-editor';
import type { MapError } from './event-map-row';

/** What differs between the kinds' editors. */
export interface NamedEventMapWords {
  /** The map's field naming the event (`event_name`, `event`). */
  field: string;
  /** The event input's label, numbered per map ("PostHog event" -> "PostHog event 1"). */
  label: string;
  placeholder: string;
  /** The stages an event may count as. */
  stages: readonly string[];
  /** The server's limit on maps per connection. */
  maxMaps: number;
  /** What mapping an event does, above the maps. */
  intro: ComponentChildren;
}

/** One map as the editor holds it: `key` keeps a row's inputs its own while others are removed. */
interface MapDraft {
  key: number;
  name: string;
  stage: string;
}

type NamedMap = Omit<MapDraft, 'key'>;

interface EventMapsSaved {
  ok: boolean;
  event_maps: unknown;
}

/** The maps of a connection's `event_maps` under `field`, whatever it holds (null: none). */
function storedMaps(maps: unknown, field: string): NamedMap[] {
  if (!Array.isArray(maps)) return [];
  return maps.flatMap((map: unknown) => {
    if (typeof map !== 'object' || map === null) return [];
    const { [field]: name, stage } = map as Record<string, unknown>;
    return typeof name === 'string' && typeof stage === 'string' ? [{ name, stage }] : [];
  });
}

/**
 * The card's "Event maps" toggle and, while it is open, the editor of the connection's maps at
 * `path`: the kind module's `useCard` puts `toggle` in its actions and `panel` in its panels.
 */
export function useEventMapsPanel({
  path,
  headingId,
  maps,
  words,
  onSaved,
}: {
  path: string;
  headingId: string;
  /** The connection's `event_maps` as the inventory lists them. */
  maps: unknown;
  words: NamedEventMapWords;
  onSaved: () => void;
}): { toggle: ComponentChildren; panel: ComponentChildren } {
  const [open, setOpen] = useState(false);
  const id = `${headingId}-event-maps`;
  return {
    toggle: (
      <button
        type="button"
        class="outline small"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((was) => !was)}
      >
        {open ? 'Close event maps' : 'Event maps'}
      </button>
    ),
    panel: open && (
      <NamedEventMaps path={path} id={id} stored={storedMaps(maps, words.field)} words={words} onSaved={onSaved} />
    ),
  };
}

function NamedEventMaps({
  path,
  id,
  stored,
  words,
  onSaved,
}: {
  path: string;
  /** The panel's id, for the card's toggle (`aria-controls`). */
  id: string;
  stored: NamedMap[];
  words: NamedEventMapWords;
  /** Re-reads the inventory after a save. */
  onSaved: () => void;
}) {
  const baseId = useId();
  const nextKey = useRef(0);
  const drafted = useCallback((maps: NamedMap[]) => maps.map((map) => ({ ...map, key: nextKey.current++ })), []);
  const storedText = JSON.stringify(stored);
  const [drafts, setDrafts] = useState<MapDraft[]>(() => drafted(stored));
  const [saved, setSaved] = useState<string | null>(null);
  // Maps stored by a save (or by someone else) replace the draft; a re-read with the same maps does not.
  useEffect(() => setDrafts(drafted(JSON.parse(storedText) as NamedMap[])), [storedText, drafted]);

  const save = useAction(
    useCallback(
      (maps: NamedMap[]) => {
        const body = maps.map(({ name, stage }) => ({ [words.field]: name, stage }));
        return api.post<EventMapsSaved>(path, { event_maps: body });
      },
      [path, words.field],
    ),
  );
  const located = mapError(save.error, drafts.length);

  const edit = (change: (current: MapDraft[]) => MapDraft[], structural = false) => {
    setSaved(null);
    // Adding or removing maps moves the indexes a refusal named.
    if (structural) save.setError(null);
    setDrafts(change);
  };
  const update = (key: number, change: Partial<NamedMap>) =>
    edit((current) => current.map((draft) => (draft.key === key ? { ...draft, ...change } : draft)));

  const submit = async (event: Event) => {
    event.preventDefault();
    setSaved(null);
    const answer = await save.run(drafts.map(({ name, stage }) => ({ name, stage })));
    if (answer) {
      const kept = storedMaps(answer.event_maps, words.field);
      setDrafts(drafted(kept));
      setSaved(savedWords(kept.length));
      onSaved();
    }
  };

  return (
    <section class="event-map-editor" id={id} aria-labelledby={`${id}-title`} data-event-maps={words.field}>
      <h3 id={`${id}-title`}>Event maps</h3>
      <p class="muted">{words.intro}</p>
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
            words={words}
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
            disabled={save.busy || drafts.length >= words.maxMaps}
            onClick={() => edit((current) => [...current, ...drafted([{ name: '', stage: 'signup' }])], true)}
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
  words,
  selectId,
  busy,
  error,
  onChange,
  onRemove,
}: {
  index: number;
  draft: NamedMap;
  words: NamedEventMapWords;
  selectId: string;
  busy: boolean;
  error: MapError | null;
  onChange: (change: Partial<NamedMap>) => void;
  onRemove: () => void;
}) {
  const number = index + 1;
  return (
    <div role="group" aria-label={`Map ${number}`} data-map-row={index}>
      <div class="map-subrow map-subrow-pair">
        <ColumnInput
          label={`${words.label} ${number}`}
          name={words.field}
          value={draft.name}
          placeholder={words.placeholder}
          invalid={error?.field === words.field}
          onInput={(name) => onChange({ name })}
        />
        <label for={selectId}>
          Stage {number}
          <select
            id={selectId}
            name="stage"
            value={draft.stage}
            disabled={busy}
            aria-invalid={error?.field === 'stage' ? true : undefined}
            onChange={(event) => onChange({ stage: (event.currentTarget as HTMLSelectElement).value })}
          >
            {words.stages.map((stage) => (
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
