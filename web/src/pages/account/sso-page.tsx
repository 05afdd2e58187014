// `#/auth/sso/<ticket>`: where the single sign-on callback lands. The one-time ticket is traded
// for a session straight away; a used or expired ticket says so and offers the login page.

import { useEffect, useState } from 'preact/hooks';
import { api } from '../../api';
import { href } from '../../router';
import type { LoginResponse } from '../../types';
import { ErrorNote, Loading } from '../../ui/states';
import { PublicFrame } from './public-frame';
import { signInWith } from './sign-in';

export function SsoPage({ ticket }: { ticket: string }) {
  const [error, setError] = useState<string | null>(null);

  // Runs once per ticket: the ticket is single-use, so a second POST would only fail.
  useEffect(() => {
    api
      .post<LoginResponse>('/auth/sso/complete', { token: ticket })
      .then(signInWith)
      .catch((failure: unknown) => setError(failure instanceof Error ? failure.message : String(failure)));
  }, [ticket]);

  return (
    <PublicFrame title="Signing in">
      {error ? (
        <>
          <ErrorNote error={error} />
          <p>
            The sign-in did not complete. <a href={href('/login')}>Back to log in</a>
          </p>
        </>
      ) : (
        <Loading what="Finishing the sign-in" />
      )}
    </PublicFrame>
  );
}
