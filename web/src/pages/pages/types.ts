// `/products/{slug}/landing-pages` (the fields as crates/server/src/services/landing_pages
// answers them).

import type { Recording } from '../recordings/types';

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

/**
 * What the replay sources counted on a page's path over the window, added up across them;
 * null when none counted the path ("nothing measured", not zeros).
 */
export interface Friction {
  rage_clicks: number;
  dead_clicks: number;
  js_errors: number;
  /** The source kinds that counted the path, as data (their labels come from the kind table). */
  providers: string[];
}

/** A recording that started on the page's path: the Recordings page's shape. */
export type PageRecording = Recording;

export interface LandingPage {
  id: string;
  path: string;
  url: string;
  /** `manual`, or the source kind that discovered it. */
  source: string;
  created_at: string;
  traffic: Traffic;
  latest_analysis: Analysis | null;
  friction: Friction | null;
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
  /** Newest first (at most 20); `recordings_url` lists the rest. */
  recordings: PageRecording[];
  /** Where the replay tool lists this path's recordings; null without one. */
  recordings_url: string | null;
}

/** `pattern`, in characters (the server's `PATTERN_MAX_CHARS`). */
export const PATTERN_MAX = 200;
/** `url`, in characters. */
export const URL_MAX = 2048;
