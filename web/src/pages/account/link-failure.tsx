// What an invite or claim page shows when its link is no good (used, expired, mistyped): the
// server's reason and the way forward.

import type { ApiError } from '../../api';
import { href } from '../../router';
import { ErrorNote } from '../../ui/states';

export function LinkFailure({ error, what }: { error: ApiError; what: string }) {
  return (
    <>
      <ErrorNote error={error} />
      <p>
        This {what} link cannot be used: links work once and for 7 days. Ask for a new one, or{' '}
        <a href={href('/login')}>log in</a> if you already have a password.
      </p>
    </>
  );
}
