// Shapes of the queue area's endpoints (spend, policy, distribution, history), as /openapi.json
// describes them. The queue card itself is the shared `Card` in ../../types.

import type { Card } from '../../types';

export type Network = 'meta' | 'google';

export const networks: Network[] = ['google', 'meta'];

/** `action_spec` of a spend proposal card. */
export interface SpendChangeSpec {
  kind: 'spend_change';
  network: Network;
  campaign_id?: string | null;
  from_cents?: number | null;
  to_cents: number;
  rollback_if?: Record<string, unknown> | null;
}

/** `action_spec` of a gate review card: approving records the verdict on the product. */
export interface GateResultSpec {
  kind: 'set_gate_result';
  gate_result: 'pass' | 'fail' | 'pivot';
  gate_due_date?: string | null;
}

export interface SpendRow {
  day: string;
  network: string;
  channel: string;
  campaign_id: string | null;
  campaign_name: string | null;
  spend_cents: number;
  impressions: number;
  clicks: number;
}

export interface NetworkCap {
  network: Network;
  daily_cap_cents: number | null;
  approved_budget_cents: number | null;
  spend_last_day_cents: number;
  binding: boolean;
  walled: boolean;
}

export interface SpendCaps {
  networks: NetworkCap[];
  portfolio_ceiling_cents: number | null;
  portfolio_currency: string;
  portfolio_committed_cents: number;
  portfolio_binding: boolean;
}

export interface SpendReport {
  window_days: number;
  currency: string;
  rows: SpendRow[];
  caps: SpendCaps;
}

export interface ProductPolicy {
  product_slug: string;
  currency: string;
  daily_caps: Record<Network, number | null>;
  adult_adjacent: boolean;
  blocked_networks: Network[];
  walled_networks: Network[];
}

export interface ApprovedBudget {
  product_slug: string;
  network: string;
  currency: string;
  daily_cents: number;
  applied: boolean;
  card_id: string;
  set_at: string;
}

export interface PortfolioPolicy {
  portfolio_ceiling_cents: number | null;
  currency: string;
  committed_daily_cents: number;
  budgets: ApprovedBudget[];
}

export interface DistributionEntry {
  id: string;
  channel: string;
  kind: string;
  url: string | null;
  utm_campaign: string | null;
  note: string | null;
  created_by: string;
  created_at: string;
  visits: number;
  leads: number;
  customers: number;
  revenue_cents: number;
}

export interface DistributionList {
  product_slug: string;
  window_days: number;
  entries: DistributionEntry[];
}

export interface HistoryEvent {
  id: number;
  occurred_at: string;
  actor: string;
  via: string;
  action: string;
  product_slug: string | null;
  subject_ref: string | null;
  card_headline: string | null;
  card_type: string | null;
  payload: unknown;
}

/** Where applying an approved spend change stands. */
export type ExecutionState = 'applying' | 'applied' | 'refused' | 'failed' | 'not_applied';

/**
 * `execution` of an approved spend card (`GET /queue?status=approved`): the change on its way to
 * the network, retried with backoff while `applying`, then applied (before and after read back
 * from the network), refused or not applied (with the reason), or failed (with the error).
 */
export interface Execution {
  state: ExecutionState;
  applied?: boolean;
  network?: string | null;
  campaign_id?: string | null;
  to_cents?: number | null;
  /** Tries so far. */
  attempts?: number | null;
  before_cents?: number | null;
  after_cents?: number | null;
  /** What was applied, in the server's words ("daily budget of campaign 111 changed from … to …"). */
  detail?: string | null;
  /** Why a refused or not applied change did not reach the network. */
  reason?: string | null;
  /** The last failure (final when `failed`; the retried one while `applying`). */
  error?: string | null;
  /** While `applying` after a failure: seconds until the next try. */
  next_attempt_in_seconds?: number | null;
}

/** A card of `GET /queue?status=approved`; `execution` is null for cards that are not spend changes. */
export interface ApprovedCard extends Card {
  execution?: Execution | null;
}
