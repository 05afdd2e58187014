// The end of every way in (login aside): accept-invite, claim and single sign-on all answer a
// login response; keep its session and open the portfolio.

import { navigate } from '../../router';
import { session } from '../../session';
import type { LoginResponse } from '../../types';

export function signInWith(login: LoginResponse) {
  session.begin(login);
  navigate('/', { replace: true });
}
