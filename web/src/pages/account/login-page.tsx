// Email and password sign-in. Lands here from the verification mail (`?verified=1`) and from any
// signed-in page visited without a session (`?next=/that/page`, where it returns afterwards).

import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../../api';
import { href, navigate } from '../../router';
import { session } from '../../session';
import type { LoginResponse } from '../../types';
import { readForm } from './form-values';
import { PasswordField } from './password-field';
import { PublicFrame } from './public-frame';
import { SsoButton } from './sso-button';

/** Only in-app paths are followed after login, so a crafted link cannot send people elsewhere. */
function nextPath(query: URLSearchParams): string {
  const next = query.get('next');
  return next && next.startsWith('/') && !next.startsWith('//') ? next : '/';
}

export function LoginPage({ query }: { query: URLSearchParams }) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<ApiError | null>(null);
  const verified = query.get('verified') === '1';

  // Someone already signed in has nothing to do here.
  useEffect(() => {
    if (session.token()) navigate(nextPath(query), { replace: true });
  }, [query]);

  const submit = async (event: Event) => {
    const { email, password } = readForm(event);
    setBusy(true);
    setFailure(null);
    try {
      const login = await api.post<LoginResponse>('/auth/login', { email, password });
      session.begin(login);
      navigate(nextPath(query));
    } catch (error) {
      setFailure(error instanceof ApiError ? error : new ApiError(0, String(error), null));
      setBusy(false);
    }
  };

  return (
    <PublicFrame title="Log in">
      {verified && (
        <p role="status" class="notice-success">
          Email verified. Log in to continue.
        </p>
      )}
      <SsoButton label="Sign in with Google" />
      <form onSubmit={submit}>
        <label>
          Email
          <input name="email" type="email" required autocomplete="email" autofocus />
        </label>
        <PasswordField id="login-password" autocomplete="current-password" hint={null} enforceLength={false} />
        <LoginFailure failure={failure} />
        <button type="submit" aria-busy={busy} disabled={busy}>
          Log in
        </button>
      </form>
      <p>
        New to Payback? <a href={href('/signup')}>Sign up</a>
      </p>
    </PublicFrame>
  );
}

function LoginFailure({ failure }: { failure: ApiError | null }) {
  if (!failure) return null;
  if (failure.status === 403 && /verif/i.test(failure.message)) {
    // Unverified email: say so plainly, the server's words first, then what to do.
    return (
      <div role="alert" class="error-note">
        <p>
          <strong>Verify your email first.</strong> {failure.message}
        </p>
        <p>
          Check your inbox (and spam folder) for the confirmation mail from Payback. No mail?{' '}
          <a href={href('/signup')}>Sign up again</a> with the same address for a fresh link; your
          password stays the one you chose first.
        </p>
      </div>
    );
  }
  return (
    <p role="alert" class="error-note">
      {failure.message}
    </p>
  );
}
