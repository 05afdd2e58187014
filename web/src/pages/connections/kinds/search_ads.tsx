// `search_ads` (Google Ads), through the search-engine grant: its card opens the URL suffix
// panel and can sign in to Google again; its config reads as the account, the manager it is
// reached through, its currency and when Payback last wrote its URL suffix.

import { useState } from 'preact/hooks';
import { when } from '../../../format';
import { GrantConnect } from '../grant-connect';
import type { KindModule } from '../kind-module';
import { SEARCH_GRANT } from '../search-ads-connect';
import { customerIdWords } from '../words';
import { UrlSuffixPanel } from './search_ads/url-suffix-panel';

export const search_ads: KindModule = {
  kind: 'search_ads',
  grant: { provider: SEARCH_GRANT, name: 'Google Ads', noun: 'ad account', choice: 'ads_customers' },
  offer: {
    render: ({ slug }) => (
      <article aria-labelledby="connect-google-ads-title">
        <h2 id="connect-google-ads-title">Connect Google Ads</h2>
        <GrantConnect provider={SEARCH_GRANT} slug={slug} kinds={[search_ads]} reconnect={false} />
      </article>
    ),
  },
  useCard: ({ connection, headingId }) => {
    const [suffixOpen, setSuffixOpen] = useState(false);
    const suffixId = `${headingId}-suffix`;
    return {
      actions: (
        <button
          type="button"
          class="outline small"
          aria-expanded={suffixOpen}
          aria-controls={suffixId}
          onClick={() => setSuffixOpen((open) => !open)}
        >
          {suffixOpen ? 'Close URL suffix' : 'URL suffix'}
        </button>
      ),
      disconnect: (
        <>
          Payback stops reading this ad account and can no longer apply approved budgets to it. Unless another
          connection uses the same Google sign-in, Payback revokes its access at Google and deletes the stored token.
          Spend already read stays in your reports.
        </>
      ),
      panels: (
        <>
          {suffixOpen && <UrlSuffixPanel slug={connection.product_slug} id={suffixId} />}
          <details class="replace-key">
            <summary>Reconnect Google</summary>
            <GrantConnect provider={SEARCH_GRANT} slug={connection.product_slug} kinds={[search_ads]} reconnect />
          </details>
        </>
      ),
    };
  },
  configLines: grantLines,
};

/**
 * The account and its name, the manager it is reached through, its currency, and when Payback
 * last wrote its URL suffix.
 */
function grantLines(config: Record<string, unknown>): string[] {
  const text = (name: string) => (typeof config[name] === 'string' && config[name] !== '' ? (config[name] as string) : null);
  const lines: string[] = [];
  const customer = text('customer_id');
  const name = text('customer_name');
  if (customer) lines.push(`account ${customerIdWords(customer)}${name ? ` (${name})` : ''}`);
  else if (name) lines.push(`account ${name}`);
  const login = text('login_customer_id');
  if (login && login !== customer) lines.push(`through manager ${customerIdWords(login)}`);
  const currency = text('currency');
  if (currency) lines.push(`reports in ${currency}`);
  lines.push('Google sign-in (token stored encrypted)');
  const deployed = text('url_suffix_deployed_at');
  if (deployed) lines.push(`URL suffix written by Payback on ${when(deployed)}`);
  return lines;
}
