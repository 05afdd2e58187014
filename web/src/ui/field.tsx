// A labelled form input with its hint; the browser's constraint attributes mirror the API's
// limits so most mistakes are caught before a round trip, and the server's error names the rest.

import type { InputHTMLAttributes } from 'preact';

type InputProps = InputHTMLAttributes<HTMLInputElement> & {
  label: string;
  hint?: string;
  name: string;
};

export function Field({ label, hint, name, ...input }: InputProps) {
  const hintId = hint ? `${name}-hint` : undefined;
  return (
    <label>
      {label}
      <input name={name} aria-describedby={hintId} {...input} />
      {hint && <small id={hintId}>{hint}</small>}
    </label>
  );
}

/** Reads a submitted form's fields as strings, trimmed. */
export function formValues(event: Event): Record<string, string> {
  event.preventDefault();
  const data = new FormData(event.currentTarget as HTMLFormElement);
  const values: Record<string, string> = {};
  for (const [key, value] of data.entries()) values[key] = String(value).trim();
  return values;
}
