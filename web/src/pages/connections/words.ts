// Connections in words: kind names, status, backfill depth, the redacted config and a
// database's event maps, so the product page and the all-products table say the same thing.

import type { EventMap } from './database-types';
import type { Connection, ConnectionStatus } from './types';

const KIND_NAMES: Record<string, string> = {
  payments: 'Payments (Stripe)',
  sql_a: 'PostgreSQL database',
  sql_b: 'MySQL or MariaDB database',
  docdb: 'MongoDB database',
};

/** `payments` -> "Payments (Stripe)"; a kind this page does not know yet reads as its word. */
export function kindName(kind: string): string {
  return KIND_NAMES[kind] ?? kind.replace(/_/g, ' ');
}

/** The word the per-kind endpoints take in their path (`sql_a` -> `sql-a`). */
export function kindPath(kind: string): string {
  return kind.replace(/_/g, '-');
}

export const STATUS_WORDS: Record<ConnectionStatus, string> = {
  // Only databases are ever pending: saved, but not read until their maps are activated.
  pending: 'staged',
  active: 'active',
  error: 'error',
  disabled: 'disabled',
};

/** The ladder's rungs: 0 (never read), 30, 365, then 3650 meaning all of the history. */
export function backfillWords(days: number): string {
  if (days <= 0) return 'history read: nothing yet';
  if (days >= 3650) return 'history read: everything';
  if (days === 365) return 'history read: last year';
  return `history read: last ${days} days`;
}

export function stageWords(stage: string): string {
  return stage === 'converted' ? 'recorded as conversions' : 'recorded as payments';
}

/**
 * The redacted config as short lines ("secret key (test mode)", "charges recorded as payments").
 * Fields the page does not know are shown as `name: value` rather than hidden.
 */
export function configLines(config: Connection['config']): string[] {
  if (!config) return [];
  const lines: string[] = [];
  // What the key is (or where the database is) reads first, then the settings.
  const first = (name: string) => Number(name === 'key' || name === 'target');
  const entries = Object.entries(config).sort(([a], [b]) => first(b) - first(a));
  for (const [name, value] of entries) {
    if (value === null || value === undefined || value === '') continue;
    if ((name === 'key' || name === 'target') && typeof value === 'string') lines.push(value);
    else if (name === 'default_stage' && typeof value === 'string') lines.push(`charges ${stageWords(value)}`);
    else if (name === 'via' && typeof value === 'string') lines.push(VIA_WORDS[value] ?? `via ${value}`);
    else if (name === 'env' && value && typeof value === 'object') lines.push(envWords(value as Record<string, unknown>));
    else lines.push(`${name.replace(/_/g, ' ')}: ${typeof value === 'string' ? value : JSON.stringify(value)}`);
  }
  return lines;
}

/** How a database connection gets its credentials. */
const VIA_WORDS: Record<string, string> = {
  credentials: 'credentials stored encrypted',
  operator_environment: "credentials from the API host's environment",
  'none yet': 'no credentials yet',
};

/** `{host_env: "PGHOST", ...}` -> "host from PGHOST, user from PGUSER". */
function envWords(env: Record<string, unknown>): string {
  const parts = Object.entries(env)
    .filter(([, variable]) => typeof variable === 'string' && variable !== '')
    .map(([name, variable]) => `${name.replace(/_env$/, '')} from ${String(variable)}`);
  return parts.join(', ');
}

/** "2 event maps" / "no event maps yet". */
export function mapCountWords(maps: EventMap[] | null | undefined): string {
  const n = maps?.length ?? 0;
  if (n === 0) return 'no event maps yet';
  return n === 1 ? '1 event map' : `${n} event maps`;
}

/** What a database calls the things it holds and the names inside them. */
export function tableWord(kind: string): { table: string; tables: string; field: string } {
  return kind === 'docdb'
    ? { table: 'collection', tables: 'collections', field: 'field path' }
    : { table: 'table', tables: 'tables', field: 'column' };
}

/** What a sync is doing right now, e.g. "syncing: reading". */
export function syncingWords(connection: Connection): string {
  if (!connection.syncing) return 'idle';
  return connection.sync_phase ? `syncing: ${connection.sync_phase}` : 'syncing';
}

/** Sources the spec names that this server cannot connect yet (shown as text, no controls). */
export const COMING_LATER: string[] = [
  'Web analytics and tag manager',
  'Search ads and search console',
  'Social-network ads and pages',
  'Product analytics and session recordings',
  'SEO and AI-search visibility tools',
];
