// Connections in words: kind names, status, backfill depth and the redacted config, so the
// product page and the all-products table say the same thing.

import type { Connection, ConnectionStatus } from './types';

const KIND_NAMES: Record<string, string> = {
  payments: 'Payments (Stripe)',
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
  pending: 'pending',
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
  // What the key is reads first, then the settings.
  const entries = Object.entries(config).sort(([a], [b]) => Number(b === 'key') - Number(a === 'key'));
  for (const [name, value] of entries) {
    if (value === null || value === undefined || value === '') continue;
    if (name === 'key' && typeof value === 'string') lines.push(value);
    else if (name === 'default_stage' && typeof value === 'string') lines.push(`charges ${stageWords(value)}`);
    else lines.push(`${name.replace(/_/g, ' ')}: ${typeof value === 'string' ? value : JSON.stringify(value)}`);
  }
  return lines;
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
  'Your own database (PostgreSQL, MySQL, MongoDB)',
];
