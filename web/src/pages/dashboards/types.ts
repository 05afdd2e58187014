// The stored dashboards' wire shapes (docs/dashboards.md): a dashboard row and the composer's
// answer. The spec itself is the widget renderer's own type, so what is stored is what draws.

import type { DashboardSpec } from '../../widgets';

export interface Dashboard {
  id: string;
  product_slug: string;
  name: string;
  description: string | null;
  spec: DashboardSpec;
  created_by: string;
  updated_by: string | null;
  created_at: string;
  updated_at: string | null;
}

/** `POST /products/{slug}/dashboards/generate`: nothing is saved. */
export interface Generated {
  name: string;
  spec: DashboardSpec;
  /** The prompt's terms that shaped the spec, in the order they appear. */
  matched: string[];
}

/** The service's limits, mirrored so the browser refuses before a round trip. */
export const NAME_MAX = 80;
export const DESCRIPTION_MAX = 300;
export const PROMPT_MIN = 3;
export const PROMPT_MAX = 500;
export const MAX_WIDGETS = 24;
