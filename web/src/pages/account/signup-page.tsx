// Sign-up: email and password, then "check your inbox". The server answers the same whether or
// not the address is already registered (so nobody can probe for accounts), and so does this page.

import { useEffect, useState } from 'preact/hooks';
import { api } from '../../api';
import { href, navigate } from '../../router';
import { session } from '../../session';
import { ErrorNote } from '../../ui/states';
import { useAction } from '../../ui/use-api';
import { readForm } from './form-values';
import { PasswordField } from './password-field';
import { PublicFrame } from './public-frame';
import { SsoButton } from './sso-button';

export function SignupPage() {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const signup = useAction(async (email: string, password: string) => {
    await api.post('/auth/signup', { email, password });
    setSentTo(email);
  });

  useEffect(() => {
    if (session.token()) navigate('/', { replace: true });
  }, []);

  if (sentTo) {
    return (
      <PublicFrame title="Check your inbox">
        <p role="status">
          We sent a confirmation link to <strong>{sentTo}</strong>. Open it to verify the address,
          then log in. Verified this address before? Just log in.
        </p>
        <p class="muted">
          The link works once and for 7 days. Nothing arrived after a few minutes? Look in the spam
          folder, or{' '}
          <button type="button" class="link-button" onClick={() => setSentTo(null)}>
            sign up again
          </button>{' '}
          for a fresh link.
        </p>
        <p>
          <a href={href('/login')}>Go to log in</a>
        </p>
      </PublicFrame>
    );
  }

  return (
    <PublicFrame title="Sign up">
      <SsoButton label="Sign in with Google" />
      <form
        onSubmit={(event) => {
          const { email, password } = readForm(event);
          void signup.run(email, password);
        }}
      >
        <label>
          Email
          <input name="email" type="email" required autocomplete="email" autofocus />
        </label>
        <PasswordField id="signup-password" autocomplete="new-password" />
        <ErrorNote error={signup.error} />
        <button type="submit" aria-busy={signup.busy} disabled={signup.busy}>
          Sign up
        </button>
      </form>
      <p>
        Already have an account? <a href={href('/login')}>Log in</a>
      </p>
    </PublicFrame>
  );
}
