// Hash routes (`#/p/shop/attribution?days=90`): the server serves one page at `/`, and links in
// mail (`#/invite/<token>`, `#/claim/<token>`, `#/login?verified=1`) land straight on a screen.

import { useEffect, useState } from 'preact/hooks';

export interface Location {
  /** The path after `#`, always starting with `/`. */
  path: string;
  query: URLSearchParams;
}

export function currentLocation(): Location {
  const hash = window.location.hash.replace(/^#/, '') || '/';
  const [path, search = ''] = hash.split('?', 2);
  return { path: path.startsWith('/') ? path : `/${path}`, query: new URLSearchParams(search) };
}

export function useLocation(): Location {
  const [location, setLocation] = useState(currentLocation);
  useEffect(() => {
    const onChange = () => setLocation(currentLocation());
    window.addEventListener('hashchange', onChange);
    // Child effects run first: a redirect made before this listener existed is picked up here.
    onChange();
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return location;
}

/** Goes to `path` (e.g. `/p/shop`), optionally replacing the current history entry. */
export function navigate(path: string, options: { replace?: boolean } = {}) {
  const target = `#${path}`;
  if (options.replace) {
    window.history.replaceState(null, '', target);
    window.dispatchEvent(new HashChangeEvent('hashchange'));
  } else {
    window.location.hash = target;
  }
}

/** The href for a route, for plain `<a>` links that keep middle-click and keyboard behaviour. */
export function href(path: string): string {
  return `#${path}`;
}

/** Matches `/p/:slug/funnel` against a path; answers the decoded params or null. */
export function matchRoute(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/').filter(Boolean);
  const have = path.split('/').filter(Boolean);
  if (want.length !== have.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i += 1) {
    if (want[i].startsWith(':')) {
      params[want[i].slice(1)] = decodeURIComponent(have[i]);
    } else if (want[i] !== have[i]) {
      return null;
    }
  }
  return params;
}

/** Replaces query parameters on the current route, keeping the path (filters, windows). */
export function setQuery(changes: Record<string, string | null>) {
  const { path, query } = currentLocation();
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === '') query.delete(key);
    else query.set(key, value);
  }
  const search = query.toString();
  navigate(search ? `${path}?${search}` : path, { replace: true });
}
