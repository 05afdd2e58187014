// One action's prompt for the picked coding agent: asked for on demand (it reads the product's
// situation again), shown read-only, and copied with one button. Where the clipboard is refused
// the text is selected instead, so Ctrl+C finishes the job.

import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../../api';
import { type CopyOutcome, copyOrSelect } from '../../ui/clipboard';
import { ErrorNote } from '../../ui/states';
import { useAction } from '../../ui/use-api';
import { agentName } from './agents';
import type { AgentTool, GrowthAction, PromptResult } from './types';

/** How long "Copied" stays on the button. */
const COPIED_MS = 4_000;

export function PromptPanel({
  action,
  slug,
  days,
  tool,
}: {
  action: GrowthAction;
  slug: string;
  days: number;
  tool: AgentTool;
}) {
  const [result, setResult] = useState<PromptResult | null>(null);
  const fetchPrompt = useCallback(
    () =>
      api.post<PromptResult>(
        `/products/${encodeURIComponent(slug)}/growth-actions/${encodeURIComponent(action.id)}/prompt`,
        { tool, days },
      ),
    [slug, action.id, tool, days],
  );
  const { run, busy, error } = useAction(fetchPrompt);
  const name = agentName(tool);
  const areaId = `growth-prompt-${action.rank}`;
  return (
    <div class="growth-prompt" data-field="prompt">
      <button
        type="button"
        class="secondary"
        aria-busy={busy}
        disabled={busy}
        onClick={async () => {
          const answer = await run();
          if (answer) setResult(answer);
        }}
      >
        Prompt for {name}
      </button>
      <ErrorNote error={error} />
      {result && <PromptText id={areaId} prompt={result.prompt} agent={name} />}
    </div>
  );
}

function PromptText({ id, prompt, agent }: { id: string; prompt: string; agent: string }) {
  const area = useRef<HTMLTextAreaElement>(null);
  const [outcome, setOutcome] = useState<CopyOutcome | null>(null);
  useEffect(() => {
    if (!outcome) return;
    const timer = window.setTimeout(() => setOutcome(null), COPIED_MS);
    return () => window.clearTimeout(timer);
  }, [outcome]);
  const copy = async () => setOutcome(await copyOrSelect(prompt, () => area.current?.select()));
  return (
    <div class="growth-prompt-text">
      <label for={id}>Prompt for {agent}</label>
      <textarea id={id} ref={area} readOnly rows={14} value={prompt} data-prompt-text />
      <div class="growth-copy">
        <button type="button" onClick={() => void copy()} aria-label={`Copy the prompt for ${agent}`}>
          {outcome === 'copied' ? 'Copied' : 'Copy'}
        </button>
        <small role="status">
          {outcome === 'copied' && 'Copied'}
          {outcome === 'selected' && 'Selected: press Ctrl+C (or long-press) to copy.'}
        </small>
      </div>
    </div>
  );
}
