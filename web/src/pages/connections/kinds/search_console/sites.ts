// The sites the search-engine grant reaches for `search_console` (`options.search_console_sites`)
// as choices of the grant's picker.

import type { ChoiceItem } from '../../grant-connect';

/** One site as `GET /connect/searchco/status` lists it. */
export interface SearchConsoleSite {
  /** `https://shop.example/` (a URL-prefix property) or `sc-domain:shop.example` (a Domain property). */
  site_url: string;
  /** `siteOwner`, `siteFullUser` or `siteRestrictedUser`. */
  permission_level: string;
}

/** Google's permission levels in words. */
const LEVELS: Record<string, string> = {
  siteOwner: 'owner',
  siteFullUser: 'full user',
  siteRestrictedUser: 'restricted user',
};

/** `sc-domain:shop.example` reads as the domain it covers. */
export function siteWords(siteUrl: string): string {
  return siteUrl.startsWith('sc-domain:') ? `${siteUrl.slice('sc-domain:'.length)} (whole domain)` : siteUrl;
}

/** The grant's sites as choices: every one may be chosen. */
export function siteChoices(options: unknown): ChoiceItem[] {
  const sites = Array.isArray(options) ? (options as SearchConsoleSite[]) : [];
  return sites.map((site) => ({
    id: site.site_url,
    label: siteWords(site.site_url),
    facts: `you are ${LEVELS[site.permission_level] ?? site.permission_level} of this site in Search Console`,
    why: null,
  }));
}
