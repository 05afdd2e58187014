// The landing pages' writes, one function per route (docs/landing-pages.md).

import { api } from '../../api';
import type { Analysis, ExcludeFilter, LandingPage } from './types';

const base = (slug: string) => `/products/${encodeURIComponent(slug)}/landing-pages`;

/** `POST .../landing-pages`: tracks the page at `url` (409 when its path is tracked). */
export function addPage(slug: string, url: string): Promise<LandingPage> {
  return api.post<LandingPage>(base(slug), { url });
}

/** `DELETE .../landing-pages/{id}`: its analyses go with it; the path's traffic stays. */
export function deletePage(slug: string, id: string): Promise<{ ok: boolean }> {
  return api.delete<{ ok: boolean }>(`${base(slug)}/${encodeURIComponent(id)}`);
}

/** `POST .../landing-pages/{id}/analyze`: fetches the live page and scores it (may be an `error`). */
export function analyzePage(slug: string, id: string): Promise<Analysis> {
  return api.post<Analysis>(`${base(slug)}/${encodeURIComponent(id)}/analyze`);
}

export function createFilter(slug: string, pattern: string): Promise<ExcludeFilter> {
  return api.post<ExcludeFilter>(`${base(slug)}/filters`, { pattern });
}

export function updateFilter(
  slug: string,
  id: string,
  changes: { pattern?: string; enabled?: boolean },
): Promise<ExcludeFilter> {
  return api.post<ExcludeFilter>(`${base(slug)}/filters/${encodeURIComponent(id)}`, changes);
}

export function deleteFilter(slug: string, id: string): Promise<{ ok: boolean }> {
  return api.delete<{ ok: boolean }>(`${base(slug)}/filters/${encodeURIComponent(id)}`);
}
