// `#/invite/<token>`: the link an owner shares to add someone to a workspace. Shows which
// workspace and address it is for, asks for a new password when the person has none yet and for
// their own password when they have a login (the owner sees the link too, so the link alone
// never signs anyone in as an existing login), then signs them in.

import { api, query } from '../../api';
import type { LoginResponse } from '../../types';
import { ErrorNote, Loading } from '../../ui/states';
import { useAction, useApi } from '../../ui/use-api';
import { readForm } from './form-values';
import { LinkFailure } from './link-failure';
import { PasswordField } from './password-field';
import { PublicFrame } from './public-frame';
import { signInWith } from './sign-in';
import type { InviteInfo } from './types';

export function InvitePage({ token }: { token: string }) {
  const invite = useApi<InviteInfo>(`/auth/invite${query({ token })}`);
  const accept = useAction(async (fields: Record<string, string>) => {
    const body: { token: string; password?: string; name?: string } = { token };
    if (fields.password) body.password = fields.password;
    if (fields.name) body.name = fields.name;
    signInWith(await api.post<LoginResponse>('/auth/accept-invite', body));
  });

  if (invite.error) {
    return (
      <PublicFrame title="Join a workspace">
        <LinkFailure error={invite.error} what="invite" />
      </PublicFrame>
    );
  }
  if (!invite.data) {
    return (
      <PublicFrame title="Join a workspace">
        <Loading what="Reading the invite" />
      </PublicFrame>
    );
  }
  const { email, account_name, needs_password } = invite.data;
  return (
    <PublicFrame title={`Join ${account_name}`}>
      <p>
        You are invited to the <strong>{account_name}</strong> workspace on Payback as{' '}
        <strong>{email}</strong>.
      </p>
      <form onSubmit={(event) => void accept.run(readForm(event))}>
        {needs_password ? (
          <>
            <label>
              Your name <span class="muted">(optional)</span>
              <input name="name" maxLength={80} autocomplete="name" />
            </label>
            <PasswordField id="invite-password" autocomplete="new-password" />
          </>
        ) : (
          <>
            <p class="muted">
              You already have a Payback login: enter its password to add this workspace to it.
              No password yet, or forgotten? <a href="#/signup">Sign up</a> with {email} to set
              one through a link we mail you, then open this invite again.
            </p>
            <PasswordField
              id="invite-password"
              label="Your Payback password"
              autocomplete="current-password"
              hint={null}
              enforceLength={false}
            />
          </>
        )}
        <p class="muted">Accepting signs you in as {email} in this browser.</p>
        <ErrorNote error={accept.error} />
        <button type="submit" aria-busy={accept.busy} disabled={accept.busy}>
          Accept invite
        </button>
      </form>
    </PublicFrame>
  );
}
