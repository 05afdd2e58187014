// `#/auth/sso/<ticket>`: where the server's SSO callback lands the browser. The ticket (one use,
// 2 minutes) is traded for a session with POST /auth/sso/complete, once, then the portfolio
// opens. The ticket is in the URL fragment, which the browser never sends to a server.

import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError } from '../../api';
import { href } from '../../router';
import type { LoginResponse } from '../../types';
import { ErrorNote, Loading } from '../../ui/states';
import { PublicFrame } from './public-frame';
import { signInWith } from './sign-in';

export function SsoPage({ ticket }: { ticket: string }) {
  const [failure, setFailure] = useState<ApiError | null>(null);
  // A ticket works once: never post it twice, even if the page renders again.
  const sent = useRef(false);

  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    api
      .post<LoginResponse>('/auth/sso/complete', { token: ticket })
      .then(signInWith)
      .catch((error: unknown) =>
        setFailure(error instanceof ApiError ? error : new ApiError(0, String(error), null)),
      );
  }, [ticket]);

  if (failure) {
    return (
      <PublicFrame title="Sign in with Google">
        <ErrorNote error={failure} />
        <p>
          This sign-in link cannot be used: it works once, for 2 minutes.{' '}
          <a href={href('/login')}>Try again</a>.
        </p>
      </PublicFrame>
    );
  }
  return (
    <PublicFrame title="Sign in with Google">
      <Loading what="Signing you in" />
    </PublicFrame>
  );
}
