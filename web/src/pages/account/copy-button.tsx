// A secret or link shown in a read-only box with a Copy button beside it. When the clipboard is
// not available (plain-http hosts), the text is selected instead so Ctrl+C / long-press works.

import { useEffect, useRef, useState } from 'preact/hooks';
import { type CopyOutcome, copyOrSelect } from '../../ui/clipboard';

export function CopyableValue({ label, value, id }: { label: string; value: string; id: string }) {
  const input = useRef<HTMLInputElement>(null);
  const [outcome, setOutcome] = useState<CopyOutcome | null>(null);

  useEffect(() => {
    if (!outcome) return;
    const timer = window.setTimeout(() => setOutcome(null), 4000);
    return () => window.clearTimeout(timer);
  }, [outcome]);

  const copy = async () => setOutcome(await copyOrSelect(value, () => input.current?.select()));

  return (
    <div class="copyable-value">
      <label for={id}>{label}</label>
      <div role="group">
        <input
          id={id}
          ref={input}
          class="secret"
          readOnly
          value={value}
          onFocus={(event) => (event.currentTarget as HTMLInputElement).select()}
        />
        <button type="button" onClick={() => void copy()} aria-label={`Copy ${label.toLowerCase()}`}>
          Copy
        </button>
      </div>
      <small role="status">
        {outcome === 'copied' && 'Copied to the clipboard.'}
        {outcome === 'selected' && 'Selected: press Ctrl+C (or long-press) to copy.'}
      </small>
    </div>
  );
}
