// A block of text to paste elsewhere (snippet, tag HTML, curl), with a Copy button. Where the
// clipboard API is missing or refused (plain http, a locked-down browser), the text is selected
// instead so Ctrl+C / Cmd+C finishes the job.

import type { ComponentChildren } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { copyOrSelect } from '../../ui/clipboard';

export function CopyBlock({ id, title, text, hint }: { id: string; title: string; text: string; hint?: ComponentChildren }) {
  const block = useRef<HTMLPreElement>(null);
  const [status, setStatus] = useState<string | null>(null);

  const selectBlock = () => {
    const element = block.current;
    const selection = window.getSelection();
    if (!element || !selection) return;
    const range = document.createRange();
    range.selectNodeContents(element);
    selection.removeAllRanges();
    selection.addRange(range);
  };
  const copy = async () => {
    const outcome = await copyOrSelect(text, selectBlock);
    setStatus(outcome === 'copied' ? 'Copied.' : 'Selected: press Ctrl+C (Cmd+C on a Mac) to copy.');
  };

  return (
    <div class="copy-block">
      <div class="copy-block-head">
        <h3 id={`${id}-title`}>{title}</h3>
        <button type="button" class="outline small" onClick={copy} aria-label={`Copy ${title.toLowerCase()}`}>
          Copy
        </button>
      </div>
      {hint && <p class="muted">{hint}</p>}
      <pre id={id} class="copyable" aria-labelledby={`${id}-title`} tabIndex={0}>
        {text}
      </pre>
      <p role="status" class="muted">
        {status}
      </p>
    </div>
  );
}
