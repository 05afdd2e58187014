// `social_ads_a` (Meta ads): through the social-network grant (with the page, in one sign-in) or
// an access token; its card opens its campaign filter and can sign in to Meta again or take a
// new token.

import { useState } from 'preact/hooks';
import type { KindModule } from '../kind-module';
import { META_OFFER, MetaReconnect, SOCIAL_GRANT } from '../social-connect';
import { AdsKeyForm, ReplaceAdsKey } from '../social-key-forms';
import type { AdsKeyWords } from '../social-key-forms';
import { campaignPrefixes, socialLines } from '../words';
import { CampaignFilter } from './social_ads_a/campaign-filter';

const WORDS: AdsKeyWords = {
  token: 'Meta access token',
  placeholder: 'EAAG…',
  hint: (
    <>
      A user or system-user token from Meta's Business settings with the <code>ads_read</code> permission (
      <code>ads_management</code> as well to apply approved budgets). Payback stores it encrypted and never shows it
      again.
    </>
  ),
  account: 'Ad account id (optional)',
  accountHint:
    'The number in Ads Manager, with or without act_. Left empty, Payback lists the accounts the token reaches and connects the only one that can feed this product.',
  campaignFilter: true,
};

export const social_ads_a: KindModule = {
  kind: 'social_ads_a',
  grant: {
    provider: SOCIAL_GRANT,
    purpose: 'spend by campaign, ad set and ad, read hourly; approved budget changes are applied to its campaigns',
    noun: 'ad account',
    choice: 'ad_accounts',
  },
  offer: META_OFFER,
  tokenForm: ({ slug, currency, onConnected }) => (
    <AdsKeyForm
      slug={slug}
      kind="social_ads_a"
      words={WORDS}
      currency={currency}
      replacing={false}
      onConnected={onConnected}
    />
  ),
  useCard: ({ connection, headingId, onChanged }) => {
    const [filterOpen, setFilterOpen] = useState(false);
    const filterId = `${headingId}-filter`;
    return {
      actions: (
        <button
          type="button"
          class="outline small"
          aria-expanded={filterOpen}
          aria-controls={filterId}
          onClick={() => setFilterOpen((open) => !open)}
        >
          {filterOpen ? 'Close campaign filter' : 'Campaign filter'}
        </button>
      ),
      disconnect:
        'Payback stops reading this ad account and can no longer apply approved budgets to it. Unless the Facebook page connection uses the same Meta token, Payback removes its permissions at Meta and deletes the stored token. Spend already read stays in your reports.',
      panels: (
        <>
          {filterOpen && (
            <CampaignFilter
              slug={connection.product_slug}
              id={filterId}
              saved={campaignPrefixes(connection.config)}
              onSaved={onChanged}
            />
          )}
          <MetaReconnect module={social_ads_a} connection={connection}>
            <ReplaceAdsKey connection={connection} words={WORDS} onConnected={onChanged} />
          </MetaReconnect>
        </>
      ),
    };
  },
  configLines: (config) => socialLines(config, { campaignFilter: true, network: 'Meta' }),
};
