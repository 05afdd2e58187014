// The funnel definition: which stages are the steps, in which order, under which names. Each
// stage shows its last 30 days of data and the sources that wrote it, so the founder builds
// the funnel from stages that actually receive events.

import { useCallback, useEffect, useState } from 'preact/hooks';
import { api } from '../../api';
import { count } from '../../format';
import { useAction } from '../../ui/use-api';
import { ErrorNote } from '../../ui/states';
import { ConfirmAction } from '../../ui/confirm-action';
import { BUILT_IN_LADDER, sameSteps, stageLabel } from './stage-names';
import { STAGES } from './types';
import type { AvailableStage, FunnelDefinition, FunnelStage, FunnelStep } from './types';

const MIN_STEPS = 2;
const MAX_STEPS = 10;
const MAX_LABEL = 40;

export function DefinitionEditor({
  slug,
  definition,
  onSaved,
}: {
  slug: string;
  definition: FunnelDefinition;
  onSaved: () => void;
}) {
  const [steps, setSteps] = useState<FunnelStep[]>(definition.steps);
  const [saved, setSaved] = useState<string | null>(null);
  // A reload after saving brings the stored steps; they replace the draft.
  useEffect(() => setSteps(definition.steps), [definition]);

  const post = useCallback(
    (next: FunnelStep[]) =>
      api.post<{ ok: boolean; steps: FunnelStep[] }>(`/products/${encodeURIComponent(slug)}/funnel/definition`, {
        steps: next,
      }),
    [slug],
  );
  const save = useAction(post);
  const reset = useAction(post);

  const available = new Map<FunnelStage, AvailableStage>(definition.available.map((a) => [a.stage, a]));
  const changed = !sameSteps(steps, definition.steps);

  const update = (index: number, change: Partial<FunnelStep>) => {
    setSaved(null);
    setSteps((current) => current.map((step, i) => (i === index ? { ...step, ...change } : step)));
  };
  const move = (index: number, by: -1 | 1) => {
    setSaved(null);
    setSteps((current) => {
      const next = [...current];
      [next[index], next[index + by]] = [next[index + by], next[index]];
      return next;
    });
  };
  const remove = (index: number) => {
    setSaved(null);
    setSteps((current) => current.filter((_, i) => i !== index));
  };
  const add = () => {
    setSaved(null);
    setSteps((current) => {
      const used = new Set(current.map((s) => s.stage));
      // Offer the first unused stage that has data, else the first unused one.
      const unused = STAGES.filter((stage) => !used.has(stage));
      const stage = unused.find((s) => (available.get(s)?.volume_30d ?? 0) > 0) ?? unused[0];
      return stage ? [...current, { stage, label: stageLabel(stage) }] : current;
    });
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    const answer = await save.run(steps.map((s) => ({ stage: s.stage, label: s.label.trim() })));
    if (answer) {
      setSaved('Funnel steps saved; the report above uses them now.');
      onSaved();
    }
  };

  return (
    <article class="funnel-definition" aria-labelledby="funnel-definition-title">
      <header>
        <h2 id="funnel-definition-title">Funnel steps</h2>
        <p>
          {definition.is_default ? (
            <>
              Using the <strong>built-in ladder</strong> (Visits, Leads, Signups, Activated, Customers). Save
              your own steps to change it.
            </>
          ) : (
            <>
              Using <strong>custom steps</strong>
              {sameSteps(definition.steps, BUILT_IN_LADDER) && ' (the same as the built-in ladder)'}.
            </>
          )}
        </p>
      </header>
      <form onSubmit={submit}>
        <ol class="funnel-steps">
          {steps.map((step, index) => {
            const usedElsewhere = new Set(steps.filter((_, i) => i !== index).map((s) => s.stage));
            const name = step.label || step.stage;
            return (
              <li key={index}>
                <div class="funnel-step-fields">
                  <label>
                    Stage of step {index + 1}
                    <select
                      aria-label={`Stage of step ${index + 1}`}
                      value={step.stage}
                      onChange={(event) => {
                        const stage = (event.currentTarget as HTMLSelectElement).value as FunnelStage;
                        // A label still at the old stage's default follows the new stage.
                        const label = step.label === stageLabel(step.stage) || !step.label ? stageLabel(stage) : step.label;
                        update(index, { stage, label });
                      }}
                    >
                      {STAGES.map((stage) => (
                        <option value={stage} disabled={usedElsewhere.has(stage)}>
                          {stage}
                          {(available.get(stage)?.volume_30d ?? 0) > 0 ? '' : ' (no data)'}
                        </option>
                      ))}
                    </select>
                  </label>
                  <label>
                    Label of step {index + 1}
                    <input
                      value={step.label}
                      required
                      maxLength={MAX_LABEL}
                      onInput={(event) => update(index, { label: (event.currentTarget as HTMLInputElement).value })}
                    />
                  </label>
                </div>
                <StageData stage={available.get(step.stage)} />
                <div class="funnel-buttons">
                  <button
                    type="button"
                    class="outline secondary small"
                    disabled={index === 0}
                    onClick={() => move(index, -1)}
                    aria-label={`Move ${name} up`}
                  >
                    Up
                  </button>
                  <button
                    type="button"
                    class="outline secondary small"
                    disabled={index === steps.length - 1}
                    onClick={() => move(index, 1)}
                    aria-label={`Move ${name} down`}
                  >
                    Down
                  </button>
                  <button
                    type="button"
                    class="outline secondary small"
                    disabled={steps.length <= MIN_STEPS}
                    onClick={() => remove(index)}
                    aria-label={`Remove ${name}`}
                  >
                    Remove
                  </button>
                </div>
              </li>
            );
          })}
        </ol>
        <p class="muted">
          {MIN_STEPS}-{MAX_STEPS} steps, each stage once, labels up to {MAX_LABEL} characters. Data counts are the last
          30 days.
        </p>
        <div class="funnel-buttons">
          <button type="button" class="outline" onClick={add} disabled={steps.length >= MAX_STEPS}>
            Add step
          </button>
          <button type="submit" aria-busy={save.busy} disabled={save.busy || !changed}>
            Save funnel steps
          </button>
          {changed && (
            <button type="button" class="outline secondary" onClick={() => setSteps(definition.steps)}>
              Discard changes
            </button>
          )}
        </div>
        <ErrorNote error={save.error} />
        {saved && (
          <p role="status" class="trend-up">
            {saved}
          </p>
        )}
      </form>
      {!definition.is_default && !sameSteps(definition.steps, BUILT_IN_LADDER) && (
        <footer>
          <ConfirmAction
            label="Reset to built-in ladder"
            confirmLabel="Reset the steps"
            question="Replace your steps with Visits, Leads, Signups, Activated, Customers? The report switches at once; no events change."
            busy={reset.busy}
            error={reset.error}
            onConfirm={async () => {
              const answer = await reset.run(BUILT_IN_LADDER);
              if (answer) {
                setSaved('Back on the built-in ladder.');
                onSaved();
              }
              return answer !== undefined;
            }}
          />
        </footer>
      )}
      <details>
        <summary>Data per stage (last 30 days)</summary>
        <AvailableTable available={definition.available} />
      </details>
    </article>
  );
}

function StageData({ stage }: { stage: AvailableStage | undefined }) {
  if (!stage || (stage.volume_30d === 0 && stage.events_30d === 0)) {
    return <small class="muted">No data for this stage in the last 30 days.</small>;
  }
  return (
    <small class="muted">
      {count(stage.volume_30d)} people, {count(stage.events_30d)} events in 30 days
      {stage.sources.length > 0 && <> · from {stage.sources.join(', ')}</>}
    </small>
  );
}

function AvailableTable({ available }: { available: AvailableStage[] }) {
  return (
    <div class="table-scroll">
      <table class="striped">
        <thead>
          <tr>
            <th scope="col">Stage</th>
            <th scope="col" class="num">
              People
            </th>
            <th scope="col" class="num">
              Events
            </th>
            <th scope="col">Sources</th>
          </tr>
        </thead>
        <tbody>
          {available.map((a) => (
            <tr key={a.stage}>
              <td>{a.stage}</td>
              <td class="num">{count(a.volume_30d)}</td>
              <td class="num">{count(a.events_30d)}</td>
              <td>{a.sources.length ? a.sources.join(', ') : <span class="muted">none</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
