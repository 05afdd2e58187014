// The signed-in person: the session token lives in localStorage so a reload keeps you signed
// in; everything else (account, workspaces) is fetched from /auth/me when needed.

import type { Account, LoginResponse } from './types';

const TOKEN_KEY = 'payback.session';

type Listener = () => void;
const listeners = new Set<Listener>();

function notify() {
  for (const listener of listeners) listener();
}

export const session = {
  token(): string | null {
    return localStorage.getItem(TOKEN_KEY);
  },
  /** Stores a login, accept-invite or claim answer. */
  begin(login: Pick<LoginResponse, 'token'>) {
    localStorage.setItem(TOKEN_KEY, login.token);
    notify();
  },
  clear() {
    if (localStorage.getItem(TOKEN_KEY) === null) return;
    localStorage.removeItem(TOKEN_KEY);
    notify();
  },
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

/** Owner-only controls are hidden from members (the server refuses them anyway). */
export function isOwner(account: Account | null): boolean {
  return account?.member_role !== 'member';
}
