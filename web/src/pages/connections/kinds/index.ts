// The dashboard's one list of source kinds it can connect: one module per kind, each in
// `<kind>.tsx` (the kind's wire word), with the parts only that kind uses (a panel, a form, the
// shapes of its own endpoints) in an optional `<kind>/` folder beside it. The connections pages
// render from this list: a product's offers (kinds sharing an offer are offered together), the
// grant flows of the providers the kinds connect through, each card's extras and its config in
// words. A kind the kind table marks connectable must be here (`crates/web/tests/kind_modules.rs`
// fails otherwise), and nothing outside this folder and `generated/` names a kind, by its wire
// word (`sql_a`) or its path word (`sql-a`).

import { KINDS } from '../../../generated/kinds';
import type { GrantProvider } from '../kind-module';
import type { KindModule, Offer } from '../kind-module';
import type { Connection } from '../types';
import { configLines } from '../words';
import { analytics_a } from './analytics_a';
import { docdb } from './docdb';
import { geo_a } from './geo_a';
import { payments } from './payments';
import { product_analytics_a } from './product_analytics_a';
import { replay_a } from './replay_a';
import { search_ads } from './search_ads';
import { search_b } from './search_b';
import { search_console } from './search_console';
import { seo_a } from './seo_a';
import { seo_b } from './seo_b';
import { social_a } from './social_a';
import { social_b } from './social_b';
import { social_ads_a } from './social_ads_a';
import { social_ads_b } from './social_ads_b';
import { sql_a } from './sql_a';
import { sql_b } from './sql_b';
import { tagmgr } from './tagmgr';

/** In the order the product page offers them. */
export const KIND_MODULES: readonly KindModule[] = [
  payments,
  search_ads,
  analytics_a,
  tagmgr,
  search_console,
  search_b,
  seo_a,
  seo_b,
  geo_a,
  replay_a,
  product_analytics_a,
  social_ads_a,
  social_a,
  social_b,
  social_ads_b,
  sql_a,
  sql_b,
  docdb,
];

/** The module of `kind`, or null for a kind the dashboard cannot connect (yet). */
export function kindModule(kind: string): KindModule | null {
  return KIND_MODULES.find((module) => module.kind === kind) ?? null;
}

/** The grant providers the kinds connect through, in the registry's order. */
export function grantProviders(): GrantProvider[] {
  const providers: GrantProvider[] = [];
  for (const module of KIND_MODULES) {
    const provider = module.grant?.provider;
    if (provider && !providers.includes(provider)) providers.push(provider);
  }
  return providers;
}

/** The kinds `provider` connects. */
export function grantKinds(provider: GrantProvider): KindModule[] {
  return KIND_MODULES.filter((module) => module.grant?.provider === provider);
}

/** One offer of the product page, with the kinds it offers. */
export interface OfferEntry {
  offer: Offer;
  kinds: KindModule[];
}

/** The product page's offers, each once, with its kinds, in the registry's order. */
export function offers(): OfferEntry[] {
  const entries: OfferEntry[] = [];
  for (const module of KIND_MODULES) {
    if (!module.offer) continue;
    const entry = entries.find((e) => e.offer === module.offer);
    if (entry) entry.kinds.push(module);
    else entries.push({ offer: module.offer, kinds: [module] });
  }
  return entries;
}

/** A connection's redacted config in words: its kind's own lines, or the generic ones. */
export function connectionLines(connection: Connection): string[] {
  const config = connection.config;
  if (!config) return [];
  return kindModule(connection.kind)?.configLines?.(config) ?? configLines(config);
}

/** How "Coming later" groups kinds that are one kind of tool to a person. */
const LATER_GROUPS: { words: string; kinds: string[] }[] = [
  { words: 'Web analytics and tag manager', kinds: ['analytics_a', 'tagmgr'] },
  { words: 'Search console', kinds: ['search_console', 'search_b'] },
  { words: 'Product analytics and session recordings', kinds: ['product_analytics_a', 'replay_a'] },
  { words: 'SEO and AI-search visibility tools', kinds: ['seo_a', 'seo_b', 'geo_a'] },
];

/**
 * The kinds the table marks not connectable yet, as the "Coming later" list says them: by group
 * (a group goes once every kind in it can be connected), and any other kind by its label.
 */
export function comingLater(): string[] {
  const later = Object.keys(KINDS).filter((kind) => !KINDS[kind].connectable);
  const grouped = LATER_GROUPS.flatMap((group) => group.kinds);
  return [
    ...LATER_GROUPS.filter((group) => group.kinds.some((kind) => later.includes(kind))).map((group) => group.words),
    ...later.filter((kind) => !grouped.includes(kind)).map((kind) => KINDS[kind].label),
  ];
}
