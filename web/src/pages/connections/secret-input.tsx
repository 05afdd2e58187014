// A labelled input for a secret (a database password, a connection string with one inside),
// hidden while typed, with a toggle to show it, as the payments key input does.

import { useId, useState } from 'preact/hooks';

export function SecretInput({
  label,
  name,
  what,
  hint,
  required = false,
  placeholder,
  maxLength = 2000,
}: {
  label: string;
  name: string;
  /** The word on the toggle: "Show password". */
  what: string;
  hint?: string;
  required?: boolean;
  placeholder?: string;
  maxLength?: number;
}) {
  const id = useId();
  const [shown, setShown] = useState(false);
  return (
    <>
      <label for={id}>{label}</label>
      <div role="group" class="key-input">
        <input
          id={id}
          name={name}
          // Preact types `type` per input kind; the toggle switches one live input between two.
          type={(shown ? 'text' : 'password') as 'password'}
          required={required}
          maxLength={maxLength}
          // Not "off": browsers ignore that on password inputs and fill in the person's Payback
          // password; a "new" password is never filled from the saved ones.
          autocomplete="new-password"
          spellcheck={false}
          placeholder={placeholder}
          aria-describedby={hint ? `${id}-hint` : undefined}
        />
        <button
          type="button"
          class="outline secondary"
          aria-pressed={shown}
          aria-controls={id}
          onClick={() => setShown((value) => !value)}
        >
          {shown ? `Hide ${what}` : `Show ${what}`}
        </button>
      </div>
      {hint && <small id={`${id}-hint`}>{hint}</small>}
    </>
  );
}
