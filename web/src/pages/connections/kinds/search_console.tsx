// `search_console` (Google Search Console), through the search-engine grant: its offer signs in
// to Google for it alone, the grant's picker lists the sites Google answered (its `pick`), and
// its card can sign in again. Clicks and impressions per query land in the reports' search
// columns.

import { GrantConnect } from '../grant-connect';
import type { GrantProvider, KindModule } from '../kind-module';
import { SEARCH_GRANT } from '../search-ads-connect';
import { ServiceAccountConnect } from '../service-account-connect';
import { siteChoices, siteWords } from './search_console/sites';

/** The grant's start button in this kind's words (the flow that follows is the grant's). */
const CONSOLE_START: GrantProvider = {
  ...SEARCH_GRANT,
  words: {
    ...SEARCH_GRANT.words,
    intro:
      'Sign in with the Google account that has your site in Search Console and allow Payback to read it. You then choose the site; its clicks and impressions per search query are read hourly. Payback changes nothing in Search Console.',
    button: 'Connect Google Search Console',
    reconnectButton: 'Reconnect Google Search Console',
    title: 'Connect Google Search Console',
    failed: 'Google Search Console was not connected',
  },
};

export const search_console: KindModule = {
  kind: 'search_console',
  grant: {
    provider: SEARCH_GRANT,
    name: 'Google Search Console',
    noun: 'site',
    choice: 'search_console_sites',
    // The operator switches it on (`PAYBACK_SEARCHCO_SEARCH_CONSOLE`): never asked for unless chosen.
    ownStart: true,
    pick: {
      field: 'search_console_site_url',
      listField: 'site',
      legend: 'Choose the site whose search queries feed this product',
      items: siteChoices,
      chosenWords: (id) => `Search Console site ${siteWords(id)}`,
      none: 'Google granted access, but this Google account has no verified site in Search Console. Sign in with the account that owns your site.',
    },
  },
  offer: {
    render: ({ slug, onConnected }) => (
      <article aria-labelledby="connect-search-console-title" data-offer="search_console">
        <h2 id="connect-search-console-title">Connect Google Search Console</h2>
        <GrantConnect provider={CONSOLE_START} slug={slug} kinds={[search_console]} reconnect={false} />
        <details class="service-account">
          <summary>Use a service account instead</summary>
          <ServiceAccountConnect slug={slug} kind={search_console} onConnected={onConnected} />
        </details>
      </article>
    ),
  },
  useCard: ({ connection }) => ({
    disconnect: (
      <>
        Payback stops reading this site. Unless another connection uses the same Google sign-in, Payback revokes its
        access at Google and deletes the stored token. Search data already read stays in your reports.
      </>
    ),
    panels: (
      <details class="replace-key">
        <summary>Reconnect Google</summary>
        <GrantConnect provider={CONSOLE_START} slug={connection.product_slug} kinds={[search_console]} reconnect />
      </details>
    ),
  }),
  configLines: (config) => {
    const site = typeof config.site_url === 'string' && config.site_url !== '' ? config.site_url : null;
    const credential =
      config.auth === 'service_account' ? "Payback's service account (no token stored)" : 'Google sign-in (token stored encrypted)';
    return [...(site ? [`site ${siteWords(site)}`] : []), credential];
  },
};
