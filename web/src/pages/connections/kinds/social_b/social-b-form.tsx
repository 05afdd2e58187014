// Connecting an X account with the bearer token of the user's X developer app, or replacing the
// token of an existing connection. The server proves the token by looking the handle up; a
// refusal (a revoked token, a handle X cannot find) is shown under the form in the server's
// words, which quote X's. The token is stored encrypted and never shown again.

import { useCallback, useState } from 'preact/hooks';
import { api } from '../../../../api';
import { Field, formValues } from '../../../../ui/field';
import { ErrorNote } from '../../../../ui/states';
import { useAction } from '../../../../ui/use-api';
import { SecretInput } from '../../secret-input';
import type { Connected } from '../../types';
import { kindPath } from '../../words';

export function SocialBForm({
  slug,
  replacing,
  currentUsername,
  onConnected,
}: {
  slug: string;
  /** True when the product already has this connection: the form replaces its token. */
  replacing: boolean;
  currentUsername?: string;
  onConnected: () => void;
}) {
  const [saved, setSaved] = useState(false);
  const connect = useAction(
    useCallback(
      (body: { bearer_token: string; username: string }) =>
        api.post<Connected>(`/products/${encodeURIComponent(slug)}/connections/${kindPath('social_b')}`, body),
      [slug],
    ),
  );
  const submit = async (event: Event) => {
    const form = event.currentTarget as HTMLFormElement;
    const values = formValues(event);
    setSaved(false);
    const answer = await connect.run({ bearer_token: values.bearer_token, username: values.username });
    if (answer) {
      form.reset();
      setSaved(true);
      onConnected();
    }
  };

  return (
    <form onSubmit={submit} class="connection-form">
      <SecretInput
        label="X bearer token"
        name="bearer_token"
        what="bearer token"
        required
        maxLength={1000}
        hint="From the X developer portal: your app, Keys and tokens, Bearer Token. Payback only reads public metrics with it, stores it encrypted and never shows it again."
      />
      <Field
        label="X handle"
        name="username"
        required
        maxLength={16}
        pattern="@?[A-Za-z0-9_]{1,15}"
        autocomplete="off"
        spellcheck={false}
        placeholder="@yourbrand"
        defaultValue={currentUsername}
        hint="The account's handle, with or without @: up to 15 letters, digits or underscores."
      />
      <button type="submit" aria-busy={connect.busy} disabled={connect.busy}>
        {replacing ? 'Replace token' : 'Connect X account'}
      </button>
      <ErrorNote error={connect.error} />
      {saved && replacing && (
        <p role="status" class="trend-up">
          Token replaced. The next sync uses the new token.
        </p>
      )}
    </form>
  );
}
