// Creates a conversion definition or replaces the one with the same key (the API's upsert).
// Editing prefills every field from the stored definition; the key then stays fixed, since a
// different key would be a new definition.

import { useState } from 'preact/hooks';
import { api } from '../../api';
import { Field } from '../../ui/field';
import { ErrorNote } from '../../ui/states';
import { useAction } from '../../ui/use-api';
import { centsToInput, parseCents } from '../../ui/money-input';
import { SCORE_MODES, SOURCES, STAGES, TIERS, VALUE_MODES } from './types';
import type { Conversion, ConversionInput } from './types';

const TIER_WORDS: Record<string, string> = {
  primary: 'Primary: a money event',
  secondary: 'Secondary: a milestone',
};
const VALUE_WORDS: Record<string, string> = {
  none: 'No value',
  fixed: 'Fixed value per conversion',
  transaction: "Each event's own amount",
};
const SCORE_WORDS: Record<string, string> = {
  none: 'No scoring',
  grade: 'Grade (A/B/C/D lead qualification)',
  numeric: 'Numeric score',
};

export function ConversionForm({
  slug,
  currency,
  editing,
  onSaved,
  onCancel,
}: {
  slug: string;
  currency: string;
  /** The definition being edited; null for a new one. */
  editing: Conversion | null;
  onSaved: (saved: Conversion) => void;
  onCancel: () => void;
}) {
  const [valueMode, setValueMode] = useState(editing?.value_mode ?? 'none');
  const [scoreMode, setScoreMode] = useState(editing?.score_mode ?? 'none');
  const save = useAction((input: ConversionInput) =>
    api.post<{ ok: boolean; conversion: Conversion }>(`/products/${encodeURIComponent(slug)}/conversions`, input),
  );

  const submit = async (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const input = readInput(form, valueMode, scoreMode, currency);
    if (input instanceof Error) {
      save.setError(input.message);
      return;
    }
    const answer = await save.run(input);
    if (answer) {
      if (!editing) form.reset();
      onSaved(answer.conversion);
    }
  };

  return (
    <form onSubmit={submit} aria-labelledby="conversion-form-title">
      <h3 id="conversion-form-title">{editing ? `Edit ${editing.label}` : 'New conversion'}</h3>
      <div class="grid">
        <div>
          <Field
            label="Key"
            name="key"
            required
            pattern="[a-z0-9_\-]{1,60}"
            maxLength={60}
            defaultValue={editing?.key ?? ''}
            readOnly={editing !== null}
            hint={editing ? 'Saving replaces this definition.' : 'Lowercase letters, digits, _ and -. An existing key is replaced.'}
          />
        </div>
        <div>
          <Field label="Label" name="label" required maxLength={80} defaultValue={editing?.label ?? ''} />
        </div>
      </div>
      <div class="grid">
        <label>
          Tier
          <select name="tier" aria-label="Tier">
            {TIERS.map((tier) => (
              <option value={tier} selected={tier === (editing?.tier ?? 'secondary')}>
                {TIER_WORDS[tier]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Stage
          <select name="stage" aria-label="Stage">
            {STAGES.map((stage) => (
              <option value={stage} selected={stage === (editing?.stage ?? 'signup')}>
                {stage}
              </option>
            ))}
          </select>
        </label>
      </div>
      <div class="grid">
        <div>
          <Field
            label="Event name"
            name="event_name"
            maxLength={120}
            defaultValue={editing?.event_name ?? ''}
            hint="Only events with exactly this name; empty counts every event of the stage."
          />
        </div>
        <label>
          Source
          <select name="source" aria-label="Source" aria-describedby="conversion-source-hint">
            <option value="">Any source</option>
            {SOURCES.map((source) => (
              <option value={source} selected={source === editing?.source}>
                {source}
              </option>
            ))}
          </select>
          <small id="conversion-source-hint">Events from the snippet and the API count only with Any source.</small>
        </label>
      </div>
      <div class="grid">
        <label>
          Value
          <select
            name="value_mode"
            aria-label="Value"
            value={valueMode}
            onChange={(event) => setValueMode((event.currentTarget as HTMLSelectElement).value)}
          >
            {VALUE_MODES.map((mode) => (
              <option value={mode}>{VALUE_WORDS[mode]}</option>
            ))}
          </select>
        </label>
        {valueMode === 'fixed' ? (
          <div>
            <Field
              label={`Fixed value (${currency})`}
              name="fixed_value"
              inputMode="decimal"
              required
              defaultValue={centsToInput(editing?.fixed_value_cents)}
              hint="What one conversion is worth."
            />
          </div>
        ) : (
          <div />
        )}
      </div>
      <div class="grid">
        <div>
          <Field
            label={`Target cost per conversion (${currency})`}
            name="target_cpa"
            inputMode="decimal"
            defaultValue={centsToInput(editing?.target_cpa_cents)}
            hint="Optional."
          />
        </div>
        <label>
          Scoring
          <select
            name="score_mode"
            aria-label="Scoring"
            value={scoreMode}
            onChange={(event) => setScoreMode((event.currentTarget as HTMLSelectElement).value)}
          >
            {SCORE_MODES.map((mode) => (
              <option value={mode}>{SCORE_WORDS[mode]}</option>
            ))}
          </select>
        </label>
      </div>
      {scoreMode === 'grade' && (
        <label>
          Grade weights (JSON object, optional)
          <textarea
            name="grade_weights"
            rows={3}
            placeholder='{"A": 1, "B": 0.5, "C": 0.2, "D": 0}'
            defaultValue={editing?.grade_weights ? JSON.stringify(editing.grade_weights) : ''}
          />
        </label>
      )}
      <label>
        <input type="checkbox" name="is_active" role="switch" defaultChecked={editing?.is_active ?? true} />
        Active (counted in the report)
      </label>
      <div class="funnel-buttons">
        <button type="submit" aria-busy={save.busy} disabled={save.busy}>
          Save conversion
        </button>
        {editing && (
          <button type="button" class="outline secondary" onClick={onCancel}>
            New conversion instead
          </button>
        )}
      </div>
      <ErrorNote error={save.error} />
    </form>
  );
}

/** The form as the API's input; every field is sent, since an upsert resets omitted ones. */
function readInput(
  form: HTMLFormElement,
  valueMode: string,
  scoreMode: string,
  currency: string,
): ConversionInput | Error {
  const data = new FormData(form);
  const text = (name: string) => String(data.get(name) ?? '').trim();
  const fixedValue = valueMode === 'fixed' ? parseCents(text('fixed_value')) : { cents: null };
  if ('problem' in fixedValue) return new Error(`Fixed value (${currency}): ${fixedValue.problem}`);
  const targetCpa = parseCents(text('target_cpa'));
  if ('problem' in targetCpa) return new Error(`Target cost per conversion: ${targetCpa.problem}`);
  const fixed = fixedValue.cents;
  const target = targetCpa.cents;
  let gradeWeights: Record<string, unknown> | null = null;
  if (scoreMode === 'grade' && text('grade_weights')) {
    try {
      const parsed: unknown = JSON.parse(text('grade_weights'));
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error();
      gradeWeights = parsed as Record<string, unknown>;
    } catch {
      return new Error('Grade weights: must be a JSON object such as {"A": 1, "B": 0.5}');
    }
  }
  return {
    key: text('key'),
    label: text('label'),
    tier: text('tier'),
    stage: text('stage'),
    source: text('source') || null,
    event_name: text('event_name') || null,
    value_mode: valueMode,
    fixed_value_cents: fixed,
    score_mode: scoreMode,
    target_cpa_cents: target,
    grade_weights: gradeWeights,
    is_active: data.get('is_active') !== null,
  };
}
