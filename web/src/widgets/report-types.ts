// Report shapes the widgets and the attribution pages read, as /openapi.json gives them.

export interface TimeseriesRow {
  day: string;
  spend_cents: number;
  revenue_cents: number;
  visits: number;
  leads: number;
  customers: number;
}

export interface FunnelRow {
  stage: string;
  channel: string | null;
  events: number;
  volume: number;
}

export interface FunnelDefinition {
  steps: { stage: string; label: string }[];
  is_default: boolean;
}

export interface CohortPoint {
  day: number;
  cumulative_revenue_cents: number;
  per_customer_cents: number | null;
}

export interface Cohort {
  /** Monday of the acquisition week. */
  cohort: string;
  customers: number;
  spend_cents: number;
  cac_cents: number | null;
  points: CohortPoint[];
  payback_day: number | null;
}

export interface PaybackReport {
  cohorts: Cohort[];
  cac: { channel: string; spend_cents: number; customers: number; cac_cents: number | null }[];
}

export interface ChannelRow {
  channel: string;
  spend_cents: number;
  revenue_first_cents: number;
  revenue_last_cents: number;
  transactions_first: number;
  customers_first: number;
  cac_cents: number | null;
  roas: number | null;
}

export interface AttributionReport {
  window_days: number;
  channels: ChannelRow[];
  totals: {
    revenue_cents: number;
    spend_cents: number;
    attributed_first_cents: number;
    unattributed_cents: number;
  };
  primary_goal?: {
    key: string;
    label: string;
    stage: string;
    count: number;
    value_cents: number;
  } | null;
  coverage: {
    identities_total: number;
    identities_with_channel: number;
    events_total: number;
    events_with_channel: number;
    transactions_total: number;
    transactions_with_identity: number;
    /** Emails named by a second user in the window; they count for the first (docs/numbers.md). */
    email_conflicts: number;
  };
}

export interface Sale {
  id: string;
  occurred_at: string;
  day: string;
  amount_cents: number;
  currency: string;
  kind: string;
  stage: string | null;
  identity: string | null;
  first_channel: string;
  last_channel: string;
}

export interface SalesList {
  window_days: number;
  total: number;
  sales: Sale[];
}

export type AdLevel = 'campaign' | 'ad_group' | 'keyword' | 'ad';

export interface AdRow {
  id: string;
  name: string | null;
  channel: string | null;
  spend_cents: number;
  impressions: number;
  clicks: number;
  revenue_cents: number;
  transactions: number;
  customers: number;
  cac_cents: number | null;
  roas: number | null;
}

export interface AdsReport {
  window_days: number;
  level: AdLevel;
  rows: AdRow[];
  totals: {
    spend_cents: number;
    revenue_cents: number;
    attributed_cents: number;
    unattributed_cents: number;
  };
  coverage: { transactions_total: number; transactions_with_paid_touch: number };
}
