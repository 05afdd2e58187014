// Connecting an X account with the bearer token of the user's X developer app, or replacing the
// token of an existing connection. The server proves the token by looking the handle up; a
// refusal (a revoked token, a handle X cannot find) is shown under the form in the server's
// words, which quote X's. The token is stored encrypted and never shown again.

import { Field } from '../../../../ui/field';
import { KeyForm } from '../../key-form';
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
  return (
    <KeyForm
      slug={slug}
      path={kindPath('social_b')}
      replacing={replacing}
      onConnected={onConnected}
      connectLabel="Connect X account"
      secretWord="token"
      nextRead="sync"
      secret={{
        label: 'X bearer token',
        name: 'bearer_token',
        what: 'bearer token',
        maxLength: 1000,
        hint: 'From the X developer portal: your app, Keys and tokens, Bearer Token. Payback only reads public metrics with it, stores it encrypted and never shows it again.',
      }}
      body={(values) => ({ bearer_token: values.bearer_token, username: values.username })}
      fields={
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
      }
    />
  );
}
