// Generated from the kind table (crates/domain/src/source_kind.rs) by
// crates/web/tests/kind_words.rs: do not edit. `cargo test -p payback-web` fails when it is
// stale; `PAYBACK_WRITE_GENERATED=1 cargo test -p payback-web` rewrites it.

/** One source kind as the dashboard shows it. */
export interface KindWords {
  /** What people call it. */
  readonly label: string;
  /** The word its dedicated paths take (`sql-a`). */
  readonly path: string;
  /** How it is connected (the kind table's family). */
  readonly family: 'search_grant' | 'social_grant' | 'key' | 'database' | 'payments';
  /** Whether the dashboard can connect it today (its module is in `pages/connections/kinds/`). */
  readonly connectable: boolean;
  /** How often it is read on its own schedule. */
  readonly cadence: 'hourly' | 'daily' | 'weekly';
  /** Days every run re-reads once its history is read. */
  readonly recentDays: number;
  /** Whether a person may start a run now. */
  readonly syncNow: boolean;
}

/** Every kind of the spec's vocabulary, by its wire word. */
export const KINDS: Readonly<Record<string, KindWords>> = {
  analytics_a: { label: 'Web analytics', path: 'analytics-a', family: 'search_grant', connectable: true, cadence: 'daily', recentDays: 3, syncNow: true },
  tagmgr: { label: 'Tag manager', path: 'tagmgr', family: 'search_grant', connectable: true, cadence: 'hourly', recentDays: 7, syncNow: true },
  search_ads: { label: 'Google Ads', path: 'search-ads', family: 'search_grant', connectable: true, cadence: 'hourly', recentDays: 7, syncNow: false },
  search_console: { label: 'Search console', path: 'search-console', family: 'search_grant', connectable: true, cadence: 'hourly', recentDays: 7, syncNow: true },
  search_b: { label: 'Second search engine\'s webmaster data', path: 'search-b', family: 'key', connectable: true, cadence: 'daily', recentDays: 7, syncNow: true },
  seo_a: { label: 'SEO metrics', path: 'seo-a', family: 'key', connectable: true, cadence: 'weekly', recentDays: 7, syncNow: false },
  seo_b: { label: 'Domain authority and backlinks', path: 'seo-b', family: 'key', connectable: true, cadence: 'weekly', recentDays: 7, syncNow: false },
  geo_a: { label: 'AI search visibility', path: 'geo-a', family: 'key', connectable: true, cadence: 'daily', recentDays: 7, syncNow: true },
  replay_a: { label: 'Session replay', path: 'replay-a', family: 'key', connectable: true, cadence: 'daily', recentDays: 7, syncNow: false },
  product_analytics_a: { label: 'Product analytics', path: 'product-analytics-a', family: 'key', connectable: true, cadence: 'daily', recentDays: 3, syncNow: true },
  social_ads_a: { label: 'Meta ads', path: 'social-ads-a', family: 'social_grant', connectable: true, cadence: 'hourly', recentDays: 7, syncNow: true },
  social_ads_b: { label: 'LinkedIn ads', path: 'social-ads-b', family: 'key', connectable: true, cadence: 'hourly', recentDays: 7, syncNow: true },
  social_a: { label: 'Facebook page', path: 'social-a', family: 'social_grant', connectable: true, cadence: 'daily', recentDays: 7, syncNow: true },
  social_b: { label: 'Microblog account', path: 'social-b', family: 'key', connectable: true, cadence: 'daily', recentDays: 7, syncNow: true },
  payments: { label: 'Payments (Stripe)', path: 'payments', family: 'payments', connectable: true, cadence: 'hourly', recentDays: 7, syncNow: true },
  sql_a: { label: 'PostgreSQL database', path: 'sql-a', family: 'database', connectable: true, cadence: 'hourly', recentDays: 7, syncNow: true },
  sql_b: { label: 'MySQL or MariaDB database', path: 'sql-b', family: 'database', connectable: true, cadence: 'hourly', recentDays: 7, syncNow: true },
  docdb: { label: 'MongoDB database', path: 'docdb', family: 'database', connectable: true, cadence: 'hourly', recentDays: 7, syncNow: true },
};
