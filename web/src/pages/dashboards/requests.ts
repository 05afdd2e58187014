// The dashboards' writes, one function per route (docs/dashboards.md).

import { api } from '../../api';
import type { DashboardSpec } from '../../widgets';
import type { Dashboard } from './types';

/** `POST /products/{slug}/dashboards`: a spec is stored exactly; a name alone starts blank. */
export function createDashboard(
  slug: string,
  body: { name: string; description?: string; spec?: DashboardSpec },
): Promise<Dashboard> {
  return api.post<Dashboard>(`/products/${encodeURIComponent(slug)}/dashboards`, body);
}

/** `POST /dashboards/{id}`: the fields given replace the stored ones (a null description clears it). */
export function updateDashboard(
  id: string,
  changes: { name?: string; description?: string | null; spec?: DashboardSpec },
): Promise<Dashboard> {
  return api.post<Dashboard>(`/dashboards/${encodeURIComponent(id)}`, changes);
}

/** `POST /dashboards/{id}/delete`: the row is gone for good. */
export function deleteDashboard(id: string): Promise<{ ok: boolean }> {
  return api.post<{ ok: boolean }>(`/dashboards/${encodeURIComponent(id)}/delete`);
}
