// The connection shapes as the API answers them (see /openapi.json, tag "connections").

import type { EventMap } from './database-types';

export type ConnectionStatus = 'pending' | 'active' | 'error' | 'disabled';

/** One row of `GET /connections`; `config` is redacted by the server, secrets never appear. */
export interface Connection {
  id: string;
  kind: string;
  status: ConnectionStatus;
  config: Record<string, unknown> | null;
  last_sync_at: string | null;
  last_error: string | null;
  /** What the last successful run read (rows, events, skipped). */
  last_detail: string | null;
  /** How deep the source has read: 0 (never), 30, 365, then 3650 (everything). */
  backfill_days: number;
  syncing: boolean;
  sync_phase: string | null;
  product_slug: string;
  next_sync_at: string | null;
  /** Database kinds: how their tables become events (empty while staged); null for others. */
  event_maps: EventMap[] | null;
}

export interface Connected {
  ok: boolean;
  connection_id: string;
}

export interface TestOutcome {
  ok: boolean;
  detail: string;
}

export interface SyncStarted {
  ok: boolean;
  started: boolean;
  days: number;
  detail: string;
}

export interface Disconnected {
  ok: boolean;
  credential_deleted: boolean;
  revoked_upstream: boolean;
}

/** `POST /connect/searchco/start`: the single-use state and the consent page to open. */
export interface GrantStarted {
  state: string;
  auth_url: string;
  expires_at: string;
}

/** One Google Ads account the grant reaches (`options.ads_customers`). */
export interface AdsCustomerOption {
  /** Digits only. */
  customer_id: string;
  descriptive_name: string | null;
  currency_code: string | null;
  /** A manager account holds accounts, not campaigns: shown, never chosen. */
  manager: boolean;
  login_customer_id: string;
  /** `ENABLED`, `CANCELED`, `SUSPENDED`, `CLOSED`, as Google reports it. */
  status: string | null;
}

/** `GET /connect/searchco/status`. */
export interface GrantStatus {
  status: 'pending' | 'complete' | 'error';
  product_slug: string;
  error?: string | null;
  options?: { ads_customers?: AdsCustomerOption[] } | null;
  /** After select: `{activated: [kinds]}`. */
  results?: { activated?: string[] } | null;
}

/** `POST /connect/searchco/select`. */
export interface GrantSelected {
  ok: boolean;
  activated: string[];
}

/** One ad account a Meta grant or an access token reaches (`options.ad_accounts`, `accounts`). */
export interface AdAccountOption {
  /** Digits only (no `act_`, no URN). */
  id: string;
  name: string;
  /** ISO 4217: an account in another currency than the product's cannot be chosen. */
  currency: string;
  /** `active`, or the network's word for why not (`disabled`, `closed`, ...). */
  status: string;
}

/** One Facebook page a Meta grant or token reaches (`options.pages`, `pages`). */
export interface PageOption {
  id: string;
  name: string;
  /** The photo-sharing business account linked to the page, if any. */
  instagram_account: { id: string; username: string | null } | null;
}

/** `GET /connect/socialco/status`. */
export interface SocialGrantStatus {
  status: 'pending' | 'complete' | 'error';
  product_slug: string;
  error?: string | null;
  /** Only what the grant was asked for is present: `ad_accounts` for Meta ads, `pages` for a page. */
  options?: { ad_accounts?: AdAccountOption[]; pages?: PageOption[] } | null;
  results?: { activated?: string[] } | null;
}

/**
 * `POST /products/{slug}/connections/social-ads-a`, `social-ads-b`, `social-a`: the connection
 * made, or `connection_id: null` when a choice among `accounts` (or `pages`) is needed.
 */
export interface SocialConnected {
  ok: boolean;
  connection_id: string | null;
  accounts?: AdAccountOption[];
  pages?: PageOption[];
}
