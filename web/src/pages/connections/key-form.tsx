// The one form behind every kind connected with a pasted key (or token) and a few plain fields:
// connecting, or replacing the key of an existing connection. Each kind's module says what
// differs (its path word, the key's label and hint, its other fields, the body it posts); the
// submit, the busy button, the server's refusal under the form and the "replaced" note are
// here once. The key is cleared after a success and never shown again.

import type { ComponentChildren } from 'preact';
import { useCallback, useState } from 'preact/hooks';
import { api, ApiError } from '../../api';
import { formValues } from '../../ui/field';
import { ErrorNote } from '../../ui/states';
import { useAction } from '../../ui/use-api';
import { SecretInput } from './secret-input';
import type { Connected } from './types';

/** The secret's input: its label, field name, the word on its show/hide toggle, limit and hint. */
export interface SecretField {
  label: string;
  name: string;
  what: string;
  maxLength: number;
  hint: string;
}

/** The last refusal, for fields that change with it (a choice the server lists). */
export interface Refusal {
  /** The server's `error` text, or null before any refusal and after a success. */
  error: string | null;
  /** The last refusal's parsed JSON body, or null (none yet, or since a success). */
  body: unknown;
}

export function KeyForm<Body>({
  slug,
  path,
  replacing,
  secret,
  fields,
  body,
  connectLabel,
  secretWord,
  nextRead,
  onConnected,
}: {
  slug: string;
  /** The kind's word in the API's path, from `kindPath(kind)` in the kind's module. */
  path: string;
  /** True when the product already has this connection: the form replaces its key. */
  replacing: boolean;
  secret: SecretField;
  /** The fields after the secret, given the last refusal when they depend on it. */
  fields?: ComponentChildren | ((refusal: Refusal) => ComponentChildren);
  /** The posted body, from the submitted fields (trimmed strings by name). */
  body: (values: Record<string, string>) => Body;
  /** The button's words when connecting: "Connect Semrush". */
  connectLabel: string;
  /** What the secret is called in the replace button and note: "key" or "token". */
  secretWord: 'key' | 'token';
  /** What reads with the new key next: "sync", or "weekly run" for a rationed source. */
  nextRead: 'sync' | 'weekly run' | 'daily run';
  onConnected: () => void;
}) {
  const [saved, setSaved] = useState(false);
  const [refusedBody, setRefusedBody] = useState<unknown>(null);
  const connect = useAction(
    useCallback(
      async (posted: Body) => {
        try {
          return await api.post<Connected>(`/products/${encodeURIComponent(slug)}/connections/${path}`, posted);
        } catch (failure) {
          setRefusedBody(failure instanceof ApiError ? failure.body : null);
          throw failure;
        }
      },
      [slug, path],
    ),
  );
  const submit = async (event: Event) => {
    const form = event.currentTarget as HTMLFormElement;
    const values = formValues(event);
    setSaved(false);
    const answer = await connect.run(body(values));
    if (answer) {
      setRefusedBody(null);
      form.reset();
      setSaved(true);
      onConnected();
    }
  };
  // The body outlives the next submit's busy moment, so a listed choice stays on screen until
  // a success or another refusal replaces it.
  const refusal: Refusal = { error: connect.error, body: refusedBody };

  return (
    <form onSubmit={submit} class="connection-form">
      <SecretInput {...secret} required />
      {typeof fields === 'function' ? fields(refusal) : fields}
      <button type="submit" aria-busy={connect.busy} disabled={connect.busy}>
        {replacing ? `Replace ${secretWord}` : connectLabel}
      </button>
      <ErrorNote error={connect.error} />
      {saved && replacing && (
        <p role="status" class="trend-up">
          {secretWord === 'key' ? 'Key' : 'Token'} replaced. The next {nextRead} uses the new {secretWord}.
        </p>
      )}
    </form>
  );
}
