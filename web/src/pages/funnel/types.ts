// Shapes the funnel, conversions and tracking pages read, as the API answers them
// (see /openapi.json: FunnelRow, FunnelDefinition, ConversionList, ConversionReport,
// TrackingKeyInfo, RotatedKey).

import { CONVERSION_SOURCES } from '../connections/kinds/conversion-sources';

/** The canonical funnel stages, in funnel order (the server's `Stage::ALL`). */
export const STAGES = [
  'impression',
  'visit',
  'engaged',
  'lead',
  'qualified',
  'signup',
  'activated',
  'converted',
  'payment',
  'churned',
] as const;

export type FunnelStage = (typeof STAGES)[number];

export interface FunnelRow {
  stage: FunnelStage;
  /** First-touch channel (identified traffic) or the event's own; null for aggregates. */
  channel: string | null;
  events: number;
  volume: number;
}

export interface FunnelSeriesRow {
  day: string;
  stage: FunnelStage;
  volume: number;
}

export interface FunnelStep {
  stage: FunnelStage;
  label: string;
}

export interface AvailableStage {
  stage: FunnelStage;
  volume_30d: number;
  events_30d: number;
  sources: string[];
}

export interface FunnelDefinition {
  steps: FunnelStep[];
  is_default: boolean;
  available: AvailableStage[];
}

export const TIERS = ['primary', 'secondary'] as const;
export const SOURCES = CONVERSION_SOURCES;
export const VALUE_MODES = ['none', 'fixed', 'transaction'] as const;
export const SCORE_MODES = ['none', 'grade', 'numeric'] as const;

export interface Conversion {
  key: string;
  label: string;
  tier: string;
  stage: string;
  source: string | null;
  event_name: string | null;
  value_mode: string;
  fixed_value_cents: number | null;
  currency: string | null;
  score_mode: string;
  target_cpa_cents: number | null;
  grade_weights: Record<string, unknown> | null;
  is_active: boolean;
  created_at: string;
  updated_at: string;
}

export interface ListedConversion extends Conversion {
  volume_30d: number;
  value_30d_cents: number;
}

/** What POST /products/{slug}/conversions takes; optional fields left out take defaults. */
export interface ConversionInput {
  key: string;
  label: string;
  tier: string;
  stage: string;
  source?: string | null;
  event_name?: string | null;
  value_mode?: string;
  fixed_value_cents?: number | null;
  score_mode?: string;
  target_cpa_cents?: number | null;
  grade_weights?: Record<string, unknown> | null;
  is_active?: boolean;
}

export interface Tally {
  count: number;
  value_cents: number;
}

export interface ConversionReportEntry {
  key: string;
  label: string;
  tier: string;
  stage: string;
  current: Tally;
  previous: Tally;
  change_pct: number | null;
  channels: { channel: string; count: number; value_cents: number }[];
}

export interface ConversionReport {
  window_days: number;
  conversions: ConversionReportEntry[];
}

export interface TrackingKeyInfo {
  key: string | null;
  created_at: string | null;
  snippet: string | null;
  gtm_html: string | null;
  curl_example: string;
  ingest_url: string;
  gtm_connected: boolean;
  gtm_deploy: GtmDeploy | null;
}

/** The connected tag manager container: the tag audit and Payback's last publish there. */
export interface GtmDeploy {
  container_path: string;
  snippet_live: boolean;
  workspace_name: string | null;
  version_name: string | null;
  published: boolean;
  deployed_at: string | null;
}

/** `POST /products/{slug}/tracking/gtm-deploy`. */
export interface GtmDeployed {
  ok: boolean;
  workspace_name: string;
  version_name: string;
  published: boolean;
}

export interface RotatedKey {
  ok: boolean;
  key: string;
  created_at: string;
  rotated: boolean;
  snippet: string;
}
