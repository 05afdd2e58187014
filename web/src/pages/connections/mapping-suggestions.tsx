// Proposals of event maps for a connected database: from presets for common schemas (which of
// them fit is shown), or from the model when the server has a gateway (without one the server's
// 503 message is shown and the presets stay usable). Nothing is saved here: the person adds the
// proposals they want into the editor, adjusts them, then saves the maps.

import { useCallback, useState } from 'preact/hooks';
import { api } from '../../api';
import { count } from '../../format';
import { ErrorNote } from '../../ui/states';
import { useAction } from '../../ui/use-api';
import type { DatabaseShape, EventMap, PresetFit, Suggestions } from './database-types';
import { mapTitle, sameTarget } from './event-map-draft';
import { kindPath } from './words';

interface SuggestBody {
  source: 'preset' | 'ai';
  preset_id?: string;
}

export function MappingSuggestions({
  slug,
  shape,
  inEditor,
  onAnswer,
  onAdd,
}: {
  slug: string;
  shape: DatabaseShape;
  /** The maps the editor holds now, so proposals already there read as added. */
  inEditor: EventMap[];
  /** Every answer, so the editor can offer the tables it read. */
  onAnswer: (answer: Suggestions) => void;
  onAdd: (maps: EventMap[]) => void;
}) {
  const kind = shape.kind;
  const [answer, setAnswer] = useState<Suggestions | null>(null);
  const request = useCallback(
    (body: SuggestBody) =>
      api.post<Suggestions>(
        `/products/${encodeURIComponent(slug)}/connections/${kindPath(kind)}/suggest-mappings`,
        body,
      ),
    [slug, kind],
  );
  const presets = useAction(request);
  const model = useAction(request);
  const ask = async (action: typeof presets, body: SuggestBody) => {
    // One answer on screen at a time, and one error: the one of the last request.
    presets.setError(null);
    model.setError(null);
    const got = await action.run(body);
    if (got) {
      setAnswer(got);
      onAnswer(got);
    }
  };
  const words = shape.words;
  const busy = presets.busy || model.busy;
  const added = (map: EventMap) => inEditor.some((other) => sameTarget(other, map));
  const addable = answer?.suggestions.filter((map) => !added(map)) ?? [];

  return (
    <section class="map-suggestions" aria-labelledby={`suggestions-${kind}`}>
      <h4 id={`suggestions-${kind}`}>Suggestions</h4>
      <p class="muted">
        Payback reads the names and types of your {words.tables}' {words.field}s (never their rows) and proposes maps.
        Nothing is saved until you save the maps below.
      </p>
      <div class="row-actions">
        <button
          type="button"
          class="outline small"
          aria-busy={presets.busy}
          disabled={busy}
          onClick={() => ask(presets, { source: 'preset' })}
        >
          Suggest from presets
        </button>
        <button
          type="button"
          class="outline small"
          aria-busy={model.busy}
          disabled={busy}
          onClick={() => ask(model, { source: 'ai' })}
        >
          Ask the model
        </button>
      </div>
      <ErrorNote error={presets.error} />
      <ErrorNote error={model.error} />
      {answer && (
        <>
          {answer.presets && <PresetList presets={answer.presets} busy={busy} onPick={(id) => ask(presets, { source: 'preset', preset_id: id })} />}
          {answer.source === 'ai' && (
            <p class="muted">
              Proposed by {answer.model ?? 'the model'}
              {answer.rejected ? `; ${count(answer.rejected)} proposals were dropped (they broke a rule or named what does not exist)` : ''}.
            </p>
          )}
          {answer.suggestions.length === 0 ? (
            <p>No suggestions for these {words.tables}: write the maps below by hand.</p>
          ) : (
            <ul class="suggestion-list" aria-label="Suggested maps">
              {answer.suggestions.map((map) => (
                <li key={mapTitle(map)}>
                  <code>{mapTitle(map)}</code> <small class="muted">{describe(map)}</small>{' '}
                  <button
                    type="button"
                    class="outline small"
                    disabled={added(map)}
                    aria-label={`Add ${mapTitle(map)}`}
                    onClick={() => onAdd([map])}
                  >
                    {added(map) ? 'Added' : 'Add'}
                  </button>
                </li>
              ))}
            </ul>
          )}
          {addable.length > 1 && (
            <button type="button" class="outline small" onClick={() => onAdd(addable)}>
              Add all suggestions
            </button>
          )}
          <p class="muted">
            Read {count(answer.schema_summary.tables.length)} {words.tables}
            {answer.schema_summary.more_tables > 0 && `; ${count(answer.schema_summary.more_tables)} more were left out`}.
          </p>
        </>
      )}
    </section>
  );
}

/** The presets that fit, each offering its maps alone; those that do not, folded away. */
function PresetList({
  presets,
  busy,
  onPick,
}: {
  presets: PresetFit[];
  busy: boolean;
  onPick: (id: string) => void;
}) {
  const fitting = presets.filter((preset) => preset.fits);
  const others = presets.filter((preset) => !preset.fits);
  const item = (preset: PresetFit, offerAlone: boolean) => (
    <li key={preset.id}>
      <strong>{preset.label}</strong>: {preset.fits ? 'fits' : 'does not fit'}
      {offerAlone && (
        <>
          {' '}
          <button type="button" class="outline secondary small" disabled={busy} onClick={() => onPick(preset.id)}>
            Only this preset
          </button>
        </>
      )}
      <br />
      <small class="muted">{preset.description}</small>
    </li>
  );
  return (
    <>
      {fitting.length === 0 ? (
        <p>No preset fits these tables.</p>
      ) : (
        <ul class="preset-fits" aria-label="Presets that fit">
          {fitting.map((preset) => item(preset, fitting.length > 1))}
        </ul>
      )}
      {others.length > 0 && (
        <details class="preset-others">
          <summary>
            {others.length} other preset{others.length > 1 ? 's' : ''} (not fitting)
          </summary>
          <ul class="preset-fits" aria-label="Presets that do not fit">
            {others.map((preset) => item(preset, false))}
          </ul>
        </details>
      )}
    </>
  );
}

/** "at created_at, key id, revenue amount_cents (cents)". */
function describe(map: EventMap): string {
  const parts = [`at ${map.timestamp}`, `key ${map.dedupe_key}`];
  if (map.user_id) parts.push(`user ${map.user_id}`);
  if (map.email) parts.push(`email ${map.email}`);
  if (map.revenue) parts.push(`revenue ${map.revenue.column} (${map.revenue.unit})`);
  const attribution = Object.keys(map.attribution ?? {});
  if (attribution.length) parts.push(`attribution ${attribution.join(', ')}`);
  if (map.filter?.length) parts.push(`${map.filter.length} filter condition${map.filter.length > 1 ? 's' : ''}`);
  return parts.join(', ');
}
