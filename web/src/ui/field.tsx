// A labelled form input with its hint; the browser's constraint attributes mirror the API's
// limits so most mistakes are caught before a round trip, and the server's error names the rest.

import type { InputHTMLAttributes } from 'preact';
import { useId } from 'preact/hooks';

type InputProps = InputHTMLAttributes<HTMLInputElement> & {
  label: string;
  hint?: string | null;
  name: string;
};

export function Field({ label, hint, name, id, ...input }: InputProps) {
  const generated = useId();
  const inputId = (id as string | undefined) ?? generated;
  const hintId = hint ? `${inputId}-hint` : undefined;
  // The hint sits outside the label so assistive tech reads it once, as a description, and the
  // field's accessible name stays just its label.
  return (
    <>
      <label for={inputId}>{label}</label>
      <input id={inputId} name={name} aria-describedby={hintId} {...input} />
      {hint && <small id={hintId}>{hint}</small>}
    </>
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
