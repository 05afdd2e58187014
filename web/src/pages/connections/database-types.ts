// The customer-database shapes as the API answers and takes them (see /openapi.json, tag
// "connections": EventMap, DatabaseConnected, EventMapsSaved, Suggestions).

import type { FunnelStage } from '../funnel/types';

/**
 * A database engine as its kind's module (`kinds/sql_a.tsx`, ...) describes it to the shared
 * connect form, event-map editor and suggestions.
 */
export interface DatabaseShape {
  /** The kind's wire word (`GET /connections` names it so; its paths spell it `sql-a`). */
  kind: string;
  /** The engine's name in "Connect a database"'s choice ("PostgreSQL"). */
  engine: string;
  /** Connected with one connection URI (a document database) rather than host, port, user. */
  connectsByUri: boolean;
  /** The port the server applies when none is given, shown as the placeholder. */
  defaultPort: number;
  /** The label of a map's namespace override ("Schema (if not public)"); null: it has none. */
  namespace: string | null;
  /** What the database calls the things it holds and the names inside them. */
  words: { table: string; tables: string; field: string };
}

/** How `cents` or `major` (a decimal amount such as 19.99) an amount column is. */
export type MoneyUnit = 'cents' | 'major';

export const FILTER_OPS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'not_in', 'is_null', 'not_null'] as const;
export type FilterOp = (typeof FILTER_OPS)[number];

/** The attribution fields a map may fill (the server's `ATTRIBUTION_FIELDS`). */
export const ATTRIBUTION_FIELDS = [
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_content',
  'utm_term',
  'utm_id',
  'gclid',
  'gbraid',
  'wbraid',
  'fbclid',
  'li_fat_id',
  'msclkid',
  'referrer',
  'landing_url',
  'channel',
] as const;

/** The stages whose maps may carry revenue. */
export const REVENUE_STAGES: readonly FunnelStage[] = ['converted', 'payment'];

export type FilterValue = string | number | boolean;

export interface Condition {
  column: string;
  op: FilterOp;
  /** A scalar; an array for `in`/`not_in`; absent for the null tests. */
  value?: FilterValue | FilterValue[];
}

export interface RevenueColumn {
  column: string;
  unit: MoneyUnit;
  currency?: string;
}

/** One table (or collection) read into one stage. Document databases name fields by dot paths. */
export interface EventMap {
  table: string;
  schema?: string;
  stage: string;
  name?: string;
  timestamp: string;
  dedupe_key: string;
  user_id?: string;
  anonymous_id?: string;
  email?: string;
  attribution?: Record<string, string>;
  revenue?: RevenueColumn;
  filter?: Condition[];
}

/** A relational connect body's `credentials`; `port` and `password` may be left out. */
export interface SqlCredentials {
  host: string;
  port?: number;
  user: string;
  password?: string;
  database: string;
  sslmode?: string;
}

/** A document database's `credentials`: one connection string naming the database. */
export interface DocdbCredentials {
  uri: string;
}

export type DatabaseStatus = 'pending' | 'active';

export interface DatabaseConnected {
  ok: boolean;
  connection_id: string;
  status: DatabaseStatus | 'error' | 'disabled';
}

export interface EventMapsSaved {
  ok: boolean;
  event_maps: EventMap[];
}

export interface ColumnSummary {
  name: string;
  data_type: string;
  kind: string;
}

export interface TableSummary {
  schema?: string | null;
  name: string;
  columns: ColumnSummary[];
  row_estimate?: number | null;
}

export interface SchemaSummary {
  tables: TableSummary[];
  /** How many tables beyond those read were left out. */
  more_tables: number;
}

export interface PresetFit {
  id: string;
  label: string;
  description: string;
  fits: boolean;
}

/** `suggest-mappings`: proposals only, nothing is saved. */
export interface Suggestions {
  source: 'preset' | 'ai';
  model?: string;
  schema_summary: SchemaSummary;
  suggestions: EventMap[];
  presets?: PresetFit[];
  /** AI path: proposals dropped because they broke a rule or named what does not exist. */
  rejected?: number;
}
