// `#/claim/<token>`: an agent created this account for a person (POST /auth/agent-signup) and
// handed them this link; choosing a password makes the account theirs and signs them in.

import { api, query } from '../../api';
import { when } from '../../format';
import { href } from '../../router';
import type { LoginResponse } from '../../types';
import { ErrorNote, Loading } from '../../ui/states';
import { useAction, useApi } from '../../ui/use-api';
import { readForm } from './form-values';
import { LinkFailure } from './link-failure';
import { PasswordField } from './password-field';
import { PublicFrame } from './public-frame';
import { signInWith } from './sign-in';
import type { ClaimInfo } from './types';

export function ClaimPage({ token }: { token: string }) {
  const claim = useApi<ClaimInfo>(`/auth/claim${query({ token })}`);
  const complete = useAction(async (password: string) => {
    signInWith(await api.post<LoginResponse>('/auth/claim', { token, password }));
  });

  if (claim.error) {
    return (
      <PublicFrame title="Claim your account">
        <LinkFailure error={claim.error} what="claim" />
      </PublicFrame>
    );
  }
  if (!claim.data) {
    return (
      <PublicFrame title="Claim your account">
        <Loading what="Reading the claim link" />
      </PublicFrame>
    );
  }
  const { email, account_name, api_keys } = claim.data;
  return (
    <PublicFrame title="Claim your account">
      <p>
        An assistant set up the <strong>{account_name}</strong> workspace on Payback for{' '}
        <strong>{email}</strong>. Choose a password to take it over; you will log in with this email
        and password from now on. API keys the assistant holds keep working until you revoke them
        under API keys.
      </p>
      {api_keys.length > 0 && (
        <section aria-label="API keys of this workspace">
          <p>These API keys can act for this workspace now:</p>
          <ul>
            {api_keys.map((key) => (
              <li key={key.id}>
                <strong>{key.name}</strong> <code>{key.prefix}…</code>{' '}
                <span class="muted">
                  created {when(key.created_at)}
                  {key.created_by ? ` by ${key.created_by.email}` : ' by an agent'}
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}
      <form onSubmit={(event) => void complete.run(readForm(event).password)}>
        <PasswordField id="claim-password" autocomplete="new-password" />
        <ErrorNote error={complete.error} />
        <button type="submit" aria-busy={complete.busy} disabled={complete.busy}>
          Claim account
        </button>
      </form>
      <p>
        Already chose a password? <a href={href('/login')}>Log in</a>
      </p>
    </PublicFrame>
  );
}
