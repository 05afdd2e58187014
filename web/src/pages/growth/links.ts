// An action's links name API endpoints. Where the dashboard has the page that reads the same
// thing or acts the same way, the link goes there; otherwise (server-side events, raising a
// spend proposal) it goes to the API reference, since the dashboard does not make that call.

import type { ActionLink } from './types';

/** The service's OpenAPI document: every endpoint's request and answer. */
export const API_REFERENCE = '/openapi.json';

/** API path suffixes under `/products/{slug}` and the product page showing the same thing. */
const PAGES: { api: RegExp; page: string; keepQuery: boolean }[] = [
  { api: /^\/attribution\/sales$/, page: '/sales', keepQuery: true },
  { api: /^\/attribution$/, page: '/attribution', keepQuery: true },
  { api: /^\/funnel(\/definition)?$/, page: '/funnel', keepQuery: true },
  { api: /^\/conversions(\/report)?$/, page: '/conversions', keepQuery: true },
  { api: /^\/tracking-key$/, page: '/tracking', keepQuery: false },
  { api: /^\/connections(\/.*)?$/, page: '/connections', keepQuery: false },
  { api: /^\/spend$/, page: '/spend', keepQuery: true },
];

/**
 * The dashboard route (`/p/shop/sales?days=30&channel=unattributed`) for a link, or null when
 * only the API does it. Grant flows (`/connect/...`) start from the product's connections page.
 */
export function dashboardPath(link: ActionLink, slug: string): string | null {
  const [path, search = ''] = link.path.split('?', 2);
  if (path.startsWith('/connect/')) return `/p/${slug}/connections`;
  const prefix = `/products/${slug}`;
  if (!path.startsWith(prefix)) return null;
  const rest = path.slice(prefix.length);
  const match = PAGES.find((entry) => entry.api.test(rest));
  if (!match) return null;
  return `/p/${slug}${match.page}${match.keepQuery && search ? `?${search}` : ''}`;
}

/** A link raising a spend proposal: it is shown, never called from here. */
export function raisesProposal(link: ActionLink, slug: string): boolean {
  return link.method === 'POST' && link.path === `/products/${slug}/proposals`;
}
