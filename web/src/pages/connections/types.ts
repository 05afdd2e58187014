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

/** The stage successful charges are recorded as; the server's default is `payment`. */
export type PaymentStage = 'converted' | 'payment';
