// Generated from the kind table (crates/domain/src/source_kind.rs) by
// crates/web/tests/kind_words.rs: do not edit. `cargo test -p payback-web` fails when it is
// stale; `PAYBACK_WRITE_GENERATED=1 cargo test -p payback-web` rewrites it.

/** One source kind as the dashboard shows it. */
export interface KindWords {
  /** What people call it. */
  readonly label: string;
  /** The word its dedicated paths take (`sql-a`). */
  readonly path: string;
  /** How often it is read on its own schedule. */
  readonly cadence: 'hourly' | 'daily' | 'weekly';
  /** Days every run re-reads once its history is read. */
  readonly recentDays: number;
  /** Whether a person may start a run now. */
  readonly syncNow: boolean;
}

/** Every kind of the spec's vocabulary, by its wire word. */
export const KINDS: Readonly<Record<string, KindWords>> = {
  analytics_a: { label: 'Web analytics', path: 'analytics-a', cadence: 'daily', recentDays: 3, syncNow: true },
  tagmgr: { label: 'Tag manager', path: 'tagmgr', cadence: 'hourly', recentDays: 7, syncNow: true },
  search_ads: { label: 'Google Ads', path: 'search-ads', cadence: 'hourly', recentDays: 7, syncNow: false },
  search_console: { label: 'Search console', path: 'search-console', cadence: 'hourly', recentDays: 7, syncNow: true },
  search_b: { label: 'Second search engine\'s webmaster data', path: 'search-b', cadence: 'daily', recentDays: 7, syncNow: true },
  seo_a: { label: 'SEO metrics', path: 'seo-a', cadence: 'weekly', recentDays: 7, syncNow: false },
  seo_b: { label: 'Domain authority and backlinks', path: 'seo-b', cadence: 'weekly', recentDays: 7, syncNow: false },
  geo_a: { label: 'AI search visibility', path: 'geo-a', cadence: 'daily', recentDays: 7, syncNow: true },
  replay_a: { label: 'Session replay', path: 'replay-a', cadence: 'daily', recentDays: 7, syncNow: false },
  product_analytics_a: { label: 'Product analytics', path: 'product-analytics-a', cadence: 'daily', recentDays: 3, syncNow: true },
  social_ads_a: { label: 'Meta ads', path: 'social-ads-a', cadence: 'hourly', recentDays: 7, syncNow: true },
  social_ads_b: { label: 'LinkedIn ads', path: 'social-ads-b', cadence: 'hourly', recentDays: 7, syncNow: true },
  social_a: { label: 'Facebook page', path: 'social-a', cadence: 'daily', recentDays: 7, syncNow: true },
  social_b: { label: 'Microblog account', path: 'social-b', cadence: 'daily', recentDays: 7, syncNow: true },
  payments: { label: 'Payments (Stripe)', path: 'payments', cadence: 'hourly', recentDays: 7, syncNow: true },
  sql_a: { label: 'PostgreSQL database', path: 'sql-a', cadence: 'hourly', recentDays: 7, syncNow: true },
  sql_b: { label: 'MySQL or MariaDB database', path: 'sql-b', cadence: 'hourly', recentDays: 7, syncNow: true },
  docdb: { label: 'MongoDB database', path: 'docdb', cadence: 'hourly', recentDays: 7, syncNow: true },
};
