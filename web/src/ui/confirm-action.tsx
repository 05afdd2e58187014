// A destructive control that asks first, in place: the button opens a short explanation with
// the real action and a way back, so keyboard and screen-reader users get the same question.

import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ErrorNote } from './states';

export function ConfirmAction({
  label,
  confirmLabel,
  question,
  busy,
  error,
  onConfirm,
  buttonClass = 'outline secondary small',
}: {
  /** The first button, e.g. `Delete`. */
  label: string;
  /** The button that does it, e.g. `Delete trial_signup`. */
  confirmLabel: string;
  /** What will happen, in words. */
  question: ComponentChildren;
  busy: boolean;
  error: string | null;
  /** Answers true when done, so the question closes; false keeps it open with the error. */
  onConfirm: () => Promise<boolean>;
  buttonClass?: string;
}) {
  const [asking, setAsking] = useState(false);
  const confirmButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) confirmButton.current?.focus();
  }, [asking]);

  if (!asking) {
    return (
      <button type="button" class={buttonClass} onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  }
  return (
    <div class="confirm-action" role="group" aria-label={confirmLabel}>
      <p>{question}</p>
      <div class="funnel-buttons">
        <button
          type="button"
          ref={confirmButton}
          class="contrast small"
          aria-busy={busy}
          disabled={busy}
          onClick={async () => {
            if (await onConfirm()) setAsking(false);
          }}
        >
          {confirmLabel}
        </button>
        <button type="button" class="outline secondary small" disabled={busy} onClick={() => setAsking(false)}>
          Cancel
        </button>
      </div>
      <ErrorNote error={error} />
    </div>
  );
}
