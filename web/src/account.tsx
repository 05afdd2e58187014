// Who is signed in, for every page: the account from /auth/me and the workspaces to switch
// between. Pages read it with useAccount(); writes that change it call refresh().

import { createContext } from 'preact';
import type { ComponentChildren } from 'preact';
import { useCallback, useContext, useEffect, useState } from 'preact/hooks';
import { api, ApiError } from './api';
import { session } from './session';
import type { Account, Workspace } from './types';

export interface AccountState {
  account: Account;
  workspaces: Workspace[];
  /** Reads /auth/me and /auth/accounts again (after a profile edit or a workspace switch). */
  refresh: () => Promise<void>;
}

const AccountContext = createContext<AccountState | null>(null);

export function useAccount(): AccountState {
  const state = useContext(AccountContext);
  if (!state) throw new Error('useAccount outside a signed-in page');
  return state;
}

/** Loads the signed-in account, then renders `children`; on failure shows `fallback(error)`. */
export function AccountProvider({
  children,
  fallback,
}: {
  children: ComponentChildren;
  fallback: (error: ApiError | null) => ComponentChildren;
}) {
  const [loaded, setLoaded] = useState<{ account: Account; workspaces: Workspace[] } | null>(null);
  const [error, setError] = useState<ApiError | null>(null);

  const refresh = useCallback(async () => {
    try {
      const [account, workspaces] = await Promise.all([
        api.get<Account>('/auth/me'),
        // API keys cannot list workspaces; a session always can.
        api.get<Workspace[]>('/auth/accounts').catch(() => [] as Workspace[]),
      ]);
      setLoaded({ account, workspaces });
      setError(null);
    } catch (failure) {
      setError(failure instanceof ApiError ? failure : new ApiError(0, String(failure), null));
    }
  }, []);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  if (!loaded) return <>{fallback(error)}</>;
  return (
    <AccountContext.Provider value={{ ...loaded, refresh }}>{children}</AccountContext.Provider>
  );
}

export function signOut() {
  void api.post('/auth/logout').catch(() => undefined).finally(() => session.clear());
}
