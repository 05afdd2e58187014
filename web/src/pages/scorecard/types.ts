// The scorecard's shapes as the API answers them (GET /products/{slug}/scorecard and friends).

export type Unit = 'count' | 'cents' | 'percent' | 'ratio';
export type Source = 'first_party' | 'ads' | 'search' | 'social' | 'manual';

export interface Week {
  key: string;
  start: string;
  end: string;
  current: boolean;
}

export interface Cell {
  week: string;
  value: number | null;
}

export interface MatrixRow {
  metric: string;
  label: string;
  unit: Unit;
  source: Source;
  manual: boolean;
  values: Cell[];
}

export interface MatrixSection {
  key: string;
  label: string;
  rows: MatrixRow[];
}

export interface CatalogEntry {
  metric: string;
  label: string;
  unit: Unit;
  source: Source;
  available: boolean;
}

export interface Matrix {
  product_slug: string;
  product_name: string;
  currency: string;
  weeks: Week[];
  sections: MatrixSection[];
  template: string | null;
  spreadsheet_id: string | null;
  share_url: string | null;
  sheets_enabled: boolean;
  catalog: CatalogEntry[];
  clamped: boolean;
}

export interface Highlight {
  metric: string;
  label: string;
  week: string;
  value: number;
  previous: number;
  change_pct: number;
  direction: 'up' | 'down';
  text: string;
}

export interface Insights {
  highlights: Highlight[];
  cards: { title: string; text: string }[];
  ai: boolean;
  model: string | null;
  generated_at: string;
}

export interface Shared {
  share_url: string;
  token: string;
}

export interface Synced {
  spreadsheet_id: string;
  spreadsheet_url: string;
}

/** The templates `POST .../scorecard/template` takes, with their names on screen. */
export const templates: { name: string; label: string }[] = [
  { name: 'default', label: 'Everything connected' },
  { name: 'saas_waitlist', label: 'SaaS waitlist' },
  { name: 'paid_acquisition', label: 'Paid acquisition' },
  { name: 'content_led', label: 'Content-led' },
];
