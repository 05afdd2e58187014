// Connections in words: kind names, status, backfill depth, the redacted config (the social
// networks' ad accounts, pages and campaign filter included) and a database's event maps, so the
// product page and the all-products table say the same thing.

import { KINDS } from '../../generated/kinds';
import type { EventMap } from './database-types';
import type { AdAccountOption, Connection, ConnectionStatus, PageOption } from './types';

/** `payments` -> "Payments (Stripe)": the kind table's label; an unknown word reads as itself. */
export function kindName(kind: string): string {
  return KINDS[kind]?.label ?? kind.replace(/_/g, ' ');
}

/** The word the per-kind endpoints take in their path (`sql_a` -> `sql-a`). */
export function kindPath(kind: string): string {
  return KINDS[kind]?.path ?? kind.replace(/_/g, '-');
}

/**
 * Why `kind` has no "Sync now" (the kind table's sync-now column: it is read only on its own
 * schedule), or null when it has one.
 */
export function noSyncNowReason(kind: string): string | null {
  const words = KINDS[kind];
  if (!words || words.syncNow) return null;
  return `${words.label} is read ${words.cadence} on its own schedule (the last ${words.recentDays} days each time); it cannot be synced on demand.`;
}

/** Google Ads customer ids in Google's own spelling: `1234567890` -> `123-456-7890`. */
export function customerIdWords(id: string): string {
  return /^\d{10}$/.test(id) ? `${id.slice(0, 3)}-${id.slice(3, 6)}-${id.slice(6)}` : id;
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
 * Fields the page does not know are shown as `name: value` rather than hidden. Kinds whose
 * settings read differently give their own lines (their module's `configLines`).
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

/**
 * A social connection's settings: the ad account (name, currency) and, with a campaign filter
 * (Meta ads), which campaigns are read; or the page and its linked Instagram account; then how
 * it was connected (`network` names the token's network).
 */
export function socialLines(
  config: Record<string, unknown>,
  { campaignFilter, network }: { campaignFilter: boolean; network: string },
): string[] {
  const text = (name: string) => (typeof config[name] === 'string' && config[name] !== '' ? (config[name] as string) : null);
  const lines: string[] = [];
  const account = text('ad_account_id');
  const accountName = text('ad_account_name');
  if (account) lines.push(`ad account ${account}${accountName ? ` (${accountName})` : ''}`);
  const page = text('page_id');
  const pageName = text('page_name');
  if (page) lines.push(`page ${pageName ? `${pageName} (${page})` : page}`);
  if (page) {
    const username = text('instagram_username');
    const instagram = text('instagram_account_id');
    lines.push(
      username ? `Instagram @${username}` : instagram ? `Instagram account ${instagram}` : 'no Instagram account linked',
    );
  }
  const currency = text('currency');
  if (currency) lines.push(`reports in ${currency}`);
  if (campaignFilter) {
    const prefixes = campaignPrefixes(config);
    lines.push(prefixes.length ? `campaigns starting with ${prefixes.join(', ')}` : 'every campaign');
  }
  if (config.grant === 'socialco') lines.push('Meta sign-in (token stored encrypted)');
  else lines.push(`${network} access token (stored encrypted)`);
  return lines;
}

/** A text field of a connection's redacted config, or null. */
export function configText(connection: Connection, name: string): string | null {
  const value = connection.config?.[name];
  return typeof value === 'string' ? value : null;
}

/** The Meta ads connection's campaign filter (`config.campaign_name_prefixes`); empty: every campaign. */
export function campaignPrefixes(config: Connection['config']): string[] {
  const prefixes = config?.campaign_name_prefixes;
  return Array.isArray(prefixes) ? prefixes.filter((p): p is string => typeof p === 'string' && p !== '') : [];
}

/** Why an ad account cannot be connected to a product counting in `currency`, or null when it can. */
export function adAccountUnavailable(account: AdAccountOption, currency: string | null): string | null {
  if (currency && account.currency.toUpperCase() !== currency.toUpperCase()) {
    return `reports in ${account.currency} but this product counts in ${currency}; spend is never mixed across currencies`;
  }
  if (account.status.toLowerCase() !== 'active') return `the account is ${account.status.replace(/_/g, ' ')}, not active`;
  return null;
}

/** A page as a choice: "Shop (id 123) · Instagram @shop". */
export function pageWords(page: PageOption): string {
  const instagram = page.instagram_account
    ? `Instagram ${page.instagram_account.username ? `@${page.instagram_account.username}` : page.instagram_account.id}`
    : 'no Instagram account linked';
  return `id ${page.id} · ${instagram}`;
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

/** What a sync is doing right now, e.g. "syncing: reading". */
export function syncingWords(connection: Connection): string {
  if (!connection.syncing) return 'idle';
  return connection.sync_phase ? `syncing: ${connection.sync_phase}` : 'syncing';
}
