// `#/settings/profile`: who you are signed in as, your display name, and your password.

import { useState } from 'preact/hooks';
import { useAccount } from '../../account';
import { ErrorNote } from '../../ui/states';
import { useAction } from '../../ui/use-api';
import { readForm } from './form-values';
import { PasswordField } from './password-field';
import { updateProfile } from './profile-request';
import { SettingsFrame } from './settings-frame';
import { Field } from '../../ui/field';

export function ProfilePage() {
  const { account } = useAccount();
  return (
    <SettingsFrame title="Profile" path="/settings/profile">
      <p>
        Signed in as <strong>{account.email}</strong>
        {account.account_name && (
          <>
            {' '}
            in the <strong>{account.account_name}</strong> workspace ({account.member_role ?? 'member'})
          </>
        )}
        .
      </p>
      <div class="settings-columns">
        <NameForm />
        <PasswordForm />
      </div>
    </SettingsFrame>
  );
}

function NameForm() {
  const { account, refresh } = useAccount();
  const [saved, setSaved] = useState(false);
  const save = useAction(async (name: string) => {
    setSaved(false);
    // A blank name clears it: the app then shows the email instead.
    await updateProfile({ name: name === '' ? null : name });
    await refresh();
    setSaved(true);
  });
  return (
    <article>
      <h2>Name</h2>
      <form onSubmit={(event) => void save.run(readForm(event).name)} onInput={() => setSaved(false)}>
        <Field
          id="profile-name"
          label="Name"
          name="name"
          maxLength={80}
          autocomplete="name"
          defaultValue={account.name ?? ''}
          hint="Shown to your team instead of your email. Up to 80 characters."
        />
        <ErrorNote error={save.error} />
        {saved && (
          <p role="status" class="notice-success">
            Name saved.
          </p>
        )}
        <button type="submit" aria-busy={save.busy} disabled={save.busy}>
          Save name
        </button>
      </form>
    </article>
  );
}

function PasswordForm() {
  const [changed, setChanged] = useState(false);
  const change = useAction(async (form: HTMLFormElement, current: string, next: string) => {
    setChanged(false);
    await updateProfile({ current_password: current, new_password: next });
    form.reset();
    setChanged(true);
  });
  return (
    <article>
      <h2>Password</h2>
      <p class="muted" id="password-change-note">
        Changing your password signs out every other session (other browsers and devices). This
        browser stays signed in.
      </p>
      <form
        aria-describedby="password-change-note"
        onSubmit={(event) => {
          const form = event.currentTarget as HTMLFormElement;
          const values = readForm(event);
          void change.run(form, values.current_password, values.new_password);
        }}
        onInput={() => setChanged(false)}
      >
        <PasswordField
          id="current-password"
          label="Current password"
          name="current_password"
          autocomplete="current-password"
          hint={null}
          enforceLength={false}
        />
        <PasswordField id="new-password" label="New password" name="new_password" autocomplete="new-password" />
        <ErrorNote error={change.error} />
        {changed && (
          <p role="status" class="notice-success">
            Password changed. Every other session was signed out.
          </p>
        )}
        <button type="submit" aria-busy={change.busy} disabled={change.busy}>
          Change password
        </button>
      </form>
    </article>
  );
}
