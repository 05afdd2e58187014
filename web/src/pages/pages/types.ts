// `/products/{slug}/landing-pages` (the fields as crates/server/src/services/landing_pages
// answers them).

export interface Traffic {
  visits: number;
  previous_visits: number;
  /** (visits − previous) / previous · 100; null when there were none before. */
  change_pct: number | null;
}

export interface Score {
  key: string;
  label: string;
  weight: number;
  /** 0-100. */
  score: number;
  note: string | null;
}

export interface Analysis {
  id: string;
  /** RFC 3339. */
  analyzed_at: string;
  model: string;
  overall_score: number | null;
  scores: Score[];
  summary: string | null;
  status: 'ok' | 'error';
  error: string | null;
}

export interface LandingPage {
  id: string;
  path: string;
  url: string;
  /** `manual`, or the source kind that discovered it. */
  source: string;
  created_at: string;
  traffic: Traffic;
  latest_analysis: Analysis | null;
  friction: Record<string, unknown> | null;
  is_excluded: boolean;
}

export interface ExcludeFilter {
  id: string;
  product_id: string;
  pattern: string;
  enabled: boolean;
  created_at: string;
  updated_at: string;
}

export interface LandingPageList {
  window_days: number;
  pages: LandingPage[];
  filters: ExcludeFilter[];
}

export interface TrafficDay {
  day: string;
  visits: number;
}

export interface LandingPageDetail extends LandingPage {
  window_days: number;
  traffic_series: TrafficDay[];
  analyses: Analysis[];
  recordings: unknown[];
  recordings_url: string | null;
}

/** `pattern`, in characters (the server's `PATTERN_MAX_CHARS`). */
export const PATTERN_MAX = 200;
/** `url`, in characters. */
export const URL_MAX = 2048;
