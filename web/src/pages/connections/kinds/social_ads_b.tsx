// `social_ads_b` (LinkedIn ads): connected with an access token only (no grant here); its card
// takes a new token.

import type { KindModule } from '../kind-module';
import { AdsKeyForm, ReplaceAdsKey } from '../social-key-forms';
import type { AdsKeyWords } from '../social-key-forms';
import { socialLines } from '../words';

const WORDS: AdsKeyWords = {
  token: 'LinkedIn access token',
  placeholder: 'AQV…',
  hint: (
    <>
      A token of a LinkedIn app with the <code>r_ads</code> and <code>r_ads_reporting</code> permissions, from the
      Campaign Manager account's admin. Payback only reads spend with it, stores it encrypted and never shows it again.
    </>
  ),
  account: 'Ad account id (optional)',
  accountHint:
    "The account's number in Campaign Manager. Left empty, Payback lists the accounts the token reaches and connects the only one that can feed this product.",
  campaignFilter: false,
};

export const social_ads_b: KindModule = {
  kind: 'social_ads_b',
  offer: {
    render: ({ slug, currency, onConnected }) => (
      <article aria-labelledby="connect-linkedin-title" data-offer="linkedin">
        <h2 id="connect-linkedin-title">Connect LinkedIn ads</h2>
        <p>
          Spend by campaign and ad from a LinkedIn Campaign Manager account, read hourly. Payback only reads it: approved
          budget changes are never applied on LinkedIn.
        </p>
        <AdsKeyForm
          slug={slug}
          kind="social_ads_b"
          words={WORDS}
          currency={currency}
          replacing={false}
          onConnected={onConnected}
        />
      </article>
    ),
  },
  useCard: ({ connection, onChanged }) => ({
    disconnect:
      'Payback deletes the stored LinkedIn token and stops reading this ad account. Spend already read stays in your reports; connect again at any time to resume.',
    panels: (
      <details class="replace-key">
        <summary>Replace token</summary>
        <ReplaceAdsKey connection={connection} words={WORDS} onConnected={onChanged} />
      </details>
    ),
  }),
  configLines: (config) => socialLines(config, { campaignFilter: false, network: 'LinkedIn' }),
};
