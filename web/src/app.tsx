// The shell: picks the screen for the hash route, sends visitors without a session to the login
// page (and back afterwards), and frames signed-in screens with the navigation.

import { useEffect, useState } from 'preact/hooks';
import { AccountProvider, signOut, useAccount } from './account';
import { api } from './api';
import { href, matchRoute, navigate, useLocation } from './router';
import type { Route } from './route';
import { routes } from './routes';
import { session } from './session';
import type { Workspace } from './types';
import { ErrorNote, Loading } from './ui/states';

function useSessionToken(): string | null {
  const [token, setToken] = useState(session.token);
  useEffect(() => session.subscribe(() => setToken(session.token())), []);
  return token;
}

function findRoute(path: string): { route: Route; params: Record<string, string> } | null {
  for (const route of routes) {
    const params = matchRoute(route.pattern, path);
    if (params) return { route, params };
  }
  return null;
}

export function App() {
  const location = useLocation();
  const token = useSessionToken();
  const found = findRoute(location.path);

  if (found?.route.public) {
    return <main class="container narrow">{found.route.render({ params: found.params, query: location.query })}</main>;
  }
  if (!token) {
    return <RedirectToLogin path={location.path} />;
  }
  return (
    <AccountProvider
      fallback={(error) => (
        <main class="container">{error ? <ErrorNote error={error} /> : <Loading what="Signing in" />}</main>
      )}
    >
      <Shell path={location.path}>
        {found ? (
          found.route.render({ params: found.params, query: location.query })
        ) : (
          <NotFound />
        )}
      </Shell>
    </AccountProvider>
  );
}

function RedirectToLogin({ path }: { path: string }) {
  useEffect(() => {
    const next = path === '/' || path === '/login' ? '' : `?next=${encodeURIComponent(path)}`;
    navigate(`/login${next}`, { replace: true });
  }, [path]);
  return null;
}

function NotFound() {
  return (
    <section class="page">
      <h1>Nothing here</h1>
      <p>
        This address does not match a page. <a href={href('/')}>Back to the portfolio</a>.
      </p>
    </section>
  );
}

const mainNav: { path: string; label: string }[] = [
  { path: '/', label: 'Portfolio' },
  { path: '/queue', label: 'Queue' },
  { path: '/history', label: 'History' },
  { path: '/connections', label: 'Connections' },
  { path: '/settings/team', label: 'Team' },
  { path: '/settings/keys', label: 'API keys' },
  { path: '/settings/policy', label: 'Policy' },
];

function isCurrent(navPath: string, path: string): boolean {
  if (navPath === '/') return path === '/' || path.startsWith('/p/');
  return path === navPath || path.startsWith(`${navPath}/`);
}

function Shell({ path, children }: { path: string; children: preact.ComponentChildren }) {
  const { account } = useAccount();
  return (
    <>
      <header class="app-bar">
        <nav class="container" aria-label="Main">
          <ul>
            <li>
              <a href={href('/')} class="brand">
                Payback
              </a>
            </li>
          </ul>
          <ul class="main-nav">
            {mainNav.map((item) => (
              <li>
                <a href={href(item.path)} aria-current={isCurrent(item.path, path) ? 'page' : undefined}>
                  {item.label}
                </a>
              </li>
            ))}
          </ul>
          <ul class="account-nav">
            <li>
              <WorkspaceSwitcher />
            </li>
            <li>
              <a href={href('/settings/profile')} aria-current={path === '/settings/profile' ? 'page' : undefined}>
                {account.name || account.email}
              </a>
            </li>
            <li>
              <button type="button" class="outline secondary small" onClick={signOut}>
                Log out
              </button>
            </li>
          </ul>
        </nav>
      </header>
      <main class="container">{children}</main>
    </>
  );
}

/** Shown only to people in more than one workspace. */
function WorkspaceSwitcher() {
  const { account, workspaces, refresh } = useAccount();
  const [error, setError] = useState<string | null>(null);
  if (workspaces.length < 2) return null;
  const choose = async (event: Event) => {
    const accountId = (event.currentTarget as HTMLSelectElement).value;
    try {
      await api.post<{ accounts: Workspace[] }>('/auth/switch-account', { account_id: accountId });
      await refresh();
      navigate('/');
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    }
  };
  return (
    <>
      <select aria-label="Workspace" value={account.id} onChange={choose} class="workspace-switcher">
        {workspaces.map((workspace) => (
          <option value={workspace.id}>{workspace.name}</option>
        ))}
      </select>
      {error && <ErrorNote error={error} />}
    </>
  );
}
