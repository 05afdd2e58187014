// Meta and LinkedIn in a browser, against the loopback Meta and LinkedIn fakes: the product's
// Connections page offers Meta (sign in, or paste a token) and LinkedIn ads (a token), and no
// longer lists social-network ads as coming later; an adult-adjacent product asking for Meta ads
// is refused with the policy's sentence; "Connect with Meta" leaves for Payback's confirmation
// page, whose button sends the browser on to the fake's Login dialog,
// which sends the browser back through the service's callback with the grant's state; the page
// lists the ad accounts (the EUR one and a disabled one shown but not choosable, each saying
// why) and the page, connects the chosen ones and shows their cards; the first sync's spend
// adds up to the fake's; the campaign filter asks before dropping the spend of campaigns it no
// longer takes and says how many rows went; LinkedIn refuses a wrong token under the token field,
// then, without an account id, lists the accounts the token reaches and connects the one chosen
// (the token still typed); the ads report shows Meta's and LinkedIn's campaigns with their
// network; approving the agent's Meta proposal shows it applied with before and after.
//
// Run by crates/testkit/tests/integration/dashboard_social.rs, which seeds the fakes, makes the
// person, the products and the proposal, runs the sync job meanwhile and checks the fake's
// budget afterwards. Besides the harness's variables it needs:
//   PAYBACK_E2E_EMAIL              the person (password: the harness's PASSWORD)
//   PAYBACK_E2E_SLUG               their USD product
//   PAYBACK_E2E_ADULT_SLUG         a second product, which the script marks adult-adjacent
//   PAYBACK_E2E_PROPOSAL           the agent's meta proposal (campaign 2001, $50 -> $75)
//   PAYBACK_E2E_META_CENTS         the fake Meta's spend in cents over the days it holds
//   PAYBACK_E2E_META_KEPT_CENTS    the part of it the campaign filter keeps (campaign 2001)
//   PAYBACK_E2E_META_DROPPED_ROWS  the spend rows (ad days) of the campaign the filter drops
//   PAYBACK_E2E_LINKEDIN_TOKEN     a token the fake LinkedIn knows
//   PAYBACK_E2E_LINKEDIN_CENTS     the fake LinkedIn's spend in cents

import {
  api,
  apiOk,
  baseUrl,
  check,
  checkEqual,
  envSetting,
  logIn,
  money,
  runBrowserTest,
  sessionToken,
  step,
} from './lib/harness.mjs';

const email = envSetting('PAYBACK_E2E_EMAIL');
const slug = envSetting('PAYBACK_E2E_SLUG');
const adultSlug = envSetting('PAYBACK_E2E_ADULT_SLUG');
const proposalId = envSetting('PAYBACK_E2E_PROPOSAL');
const META_CENTS = Number(envSetting('PAYBACK_E2E_META_CENTS'));
const META_KEPT_CENTS = Number(envSetting('PAYBACK_E2E_META_KEPT_CENTS'));
const META_DROPPED_ROWS = Number(envSetting('PAYBACK_E2E_META_DROPPED_ROWS'));
const LINKEDIN_TOKEN = envSetting('PAYBACK_E2E_LINKEDIN_TOKEN');
const LINKEDIN_CENTS = Number(envSetting('PAYBACK_E2E_LINKEDIN_CENTS'));
/** The fake Meta's ad accounts (the one connected, one in EUR, one disabled) and its page. */
const META_ACCOUNT = '1001';
const EURO_ACCOUNT = '1002';
const DISABLED_ACCOUNT = '1003';
const PAGE = '5001';
/** The campaign the filter keeps (and the proposal changes), and the one it drops. */
const KEPT_CAMPAIGN = '2001';
const DROPPED_CAMPAIGN = '2002';
/** The fake LinkedIn's accounts: the one chosen, another usable one, one in EUR. */
const LINKEDIN_ACCOUNT = '507';
const LINKEDIN_OTHER = '508';
const LINKEDIN_EURO = '509';

async function until(what, probe, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    check(Date.now() < deadline, `timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

await runBrowserTest(
  'dashboard-social',
  async (browser) => {
    const page = await browser.page();

    step('log in');
    await logIn(page, email);
    const token = await sessionToken(page);
    check(token, 'the app stored a session');
    const usd = (cents) => money(page, cents, 'USD');
    const connection = async (kind) =>
      (await apiOk('GET', '/connections', { token })).find((c) => c.product_slug === slug && c.kind === kind);
    const synced = (kind) =>
      until(
        `the first ${kind} sync`,
        async () => {
          const row = await connection(kind);
          return row && row.backfill_days >= 30 && !row.syncing ? row : null;
        },
        60_000,
      );
    const adsReport = () => apiOk('GET', `/products/${slug}/attribution/ads?days=30&level=campaign`, { token });
    const spendOf = (report, channel) =>
      report.rows.filter((row) => row.channel === channel).reduce((sum, row) => sum + row.spend_cents, 0);

    step('an adult-adjacent product asking for Meta ads is refused in the policy’s words');
    await apiOk('POST', `/products/${adultSlug}/policy`, { token, body: { adult_adjacent: true } });
    await page.goto(`${baseUrl}/#/p/${adultSlug}/connections`);
    const adultOffer = page.getByRole('article', { name: 'Connect Meta' });
    await adultOffer.getByRole('button', { name: 'Connect with Meta' }).click();
    const wall = adultOffer.getByRole('alert');
    await wall.waitFor();
    const refused = await api('POST', '/connect/socialco/start', {
      token,
      body: { product_slug: adultSlug, kinds: ['social_ads_a', 'social_a'], client: 'dashboard' },
    });
    checkEqual([refused.status, refused.body.policy_code], [403, 'network_wall'], 'starting Meta ads for it');
    checkEqual(await wall.innerText(), refused.body.error, 'the refusal shown');
    check(page.url().includes(`/p/${adultSlug}/connections`), `the page left for Meta: ${page.url()}`);
    await browser.screenshot(page, 'social-network-wall');

    step('the Connections page offers Meta and LinkedIn, and no longer lists social ads as coming later');
    await page.goto(`${baseUrl}/#/p/${slug}/connections`);
    const metaOffer = page.getByRole('article', { name: 'Connect Meta' });
    await metaOffer.waitFor();
    const later = await page.locator('.coming-later').innerText();
    check(!/social-network ads/i.test(later), `"coming later" still lists social-network ads: ${later}`);
    check(await metaOffer.getByRole('checkbox', { name: /Meta ads/ }).isChecked(), 'Meta ads is not asked for');
    check(await metaOffer.getByRole('checkbox', { name: /Facebook page/ }).isChecked(), 'the page is not asked for');
    const linkedinOffer = page.getByRole('article', { name: 'Connect LinkedIn ads' });
    await linkedinOffer.waitFor();
    await browser.screenshot(page, 'social-offers');

    step("Connect with Meta: the Login dialog sends the browser back with a complete grant");
    await metaOffer.getByRole('button', { name: 'Connect with Meta' }).click();
    // Payback's own page comes before Meta's (issue 35): it names the workspace, the product
    // and who started the flow, and only its button sends the browser on to the Login dialog.
    await page.waitForURL((url) => url.pathname === '/connect/socialco/confirm');
    checkEqual(await page.getByRole('heading', { level: 1 }).innerText(), 'Connect Meta to Payback?', 'the page heading');
    check((await page.locator('#product').innerText()).includes(`(${slug})`), 'the page does not name the product');
    check((await page.locator('#starter').innerText()).includes(email), 'the page does not name who started');
    await browser.screenshot(page, 'social-confirm-page');
    await page.getByRole('button', { name: 'Continue to Meta' }).click();
    await page.waitForURL((url) => /^#\/p\/[^/]+\/connections\?socialco_state=so_/.test(url.hash));
    const grantState = decodeURIComponent(page.url().split('socialco_state=')[1]);
    const status = await until('the grant to complete', async () => {
      const answer = await apiOk('GET', `/connect/socialco/status?state=${encodeURIComponent(grantState)}`, { token });
      return answer.status === 'pending' ? null : answer;
    });
    checkEqual([status.status, status.product_slug], ['complete', slug], 'the grant after the Login dialog');

    step('the ad accounts and the page it reaches: other currencies and disabled accounts shown, not choosable');
    const radio = (name) => page.getByRole('radio', { name });
    await radio(/Meta Shop/).waitFor();
    checkEqual(
      await page.locator('[data-ad-account]').count(),
      status.options.ad_accounts.length,
      'accounts listed against the status',
    );
    const accountFacts = (id) => page.locator(`[data-ad-account="${id}"]`).innerText();
    check(await radio(/Euro Shop/).isDisabled(), 'the EUR account can be chosen for a USD product');
    check((await accountFacts(EURO_ACCOUNT)).includes('reports in EUR'), 'the EUR account does not say why');
    check(await radio(/Old Shop/).isDisabled(), 'the disabled account can be chosen');
    check((await accountFacts(DISABLED_ACCOUNT)).includes('not active'), 'the disabled account does not say why');
    check(await radio(/Meta Shop/).isEnabled(), 'the USD account cannot be chosen');
    check((await accountFacts(META_ACCOUNT)).includes('currency USD'), "the account's currency is not shown");
    checkEqual(await page.locator('[data-page]').count(), status.options.pages.length, 'pages listed');
    check(await radio(/Shop page/).isChecked(), 'the only page is not picked already');
    check((await page.locator(`[data-page="${PAGE}"]`).innerText()).includes('Instagram @shop'), 'the Instagram account');
    await browser.screenshot(page, 'social-pick');

    step('picking the account connects it and the page, and shows their cards');
    await radio(/Meta Shop/).check();
    await page.getByRole('button', { name: 'Connect these' }).click();
    const adsCard = page.locator('article[data-connection="social_ads_a"]');
    const pageCard = page.locator('article[data-connection="social_a"]');
    await adsCard.waitFor();
    await pageCard.waitFor();
    await page.getByText('Meta ads account Meta Shop (1001) and Facebook page Shop page connected').waitFor();
    check(!page.url().includes('socialco_state'), `the address still carries the grant: ${page.url()}`);
    const adsFacts = await adsCard.locator('.connection-facts').innerText();
    for (const words of ['ad account 1001 (Meta Shop)', 'reports in USD', 'every campaign', 'Meta sign-in']) {
      check(adsFacts.includes(words), `the Meta ads card does not say "${words}": ${adsFacts}`);
    }
    check((await pageCard.innerText()).includes('page Shop page (5001)'), 'the page card does not name the page');
    checkEqual(await page.getByRole('article', { name: 'Connect Meta' }).count(), 0, 'Meta offers left');
    const metaAds = await connection('social_ads_a');
    checkEqual(
      [metaAds.status, metaAds.config.ad_account_id, metaAds.config.currency, metaAds.config.grant],
      ['active', META_ACCOUNT, 'USD', 'socialco'],
      'GET /connections after connecting',
    );
    const again = await api('POST', '/connect/socialco/select', { token, body: { state: grantState, ad_account_id: META_ACCOUNT } });
    checkEqual(again.status, 409, 'choosing twice with one grant');

    step('the first sync (the job, run by the test) brings the fake’s spend');
    await synced('social_ads_a');
    checkEqual(spendOf(await adsReport(), 'paid_meta'), META_CENTS, "Meta spend against the fake's");
    await page.reload();
    await adsCard.getByText('history read: last 30 days').waitFor();

    step('the campaign filter: chips are added and removed before saving');
    await adsCard.getByRole('button', { name: 'Campaign filter' }).click();
    const filter = adsCard.locator('.campaign-filter');
    checkEqual(await filter.locator('[data-filter="current"]').innerText(), 'Saved: every campaign.', 'the filter before');
    const adding = filter.getByLabel('Add prefixes');
    await adding.fill('Shop');
    await adding.press('Enter');
    await adding.fill('Brand\nSpare');
    await filter.getByRole('button', { name: 'Add', exact: true }).click();
    await filter.getByRole('button', { name: 'Remove Spare' }).click();
    checkEqual(
      await filter.locator('[data-prefix]').evaluateAll((chips) => chips.map((chip) => chip.dataset.prefix)),
      ['Shop', 'Brand'],
      'the chips',
    );

    step('saving asks first (stored spend of other campaigns is dropped), then says how many rows went');
    await filter.getByRole('button', { name: 'Save filter' }).click();
    await filter.getByText('is dropped now').waitFor();
    checkEqual((await connection('social_ads_a')).config.campaign_name_prefixes, [], 'the filter before confirming');
    await filter.getByRole('button', { name: 'Save and drop other spend' }).click();
    const dropped = filter.locator('[data-filter="dropped"]');
    await dropped.waitFor();
    check(
      (await dropped.innerText()).includes(`${META_DROPPED_ROWS} spend rows dropped`),
      `the note does not say ${META_DROPPED_ROWS} rows were dropped: ${await dropped.innerText()}`,
    );
    await adsCard.getByText('campaigns starting with Shop, Brand').waitFor();
    checkEqual((await connection('social_ads_a')).config.campaign_name_prefixes, ['Shop', 'Brand'], 'the filter saved');
    const history = await apiOk('GET', `/history?product=${slug}`, { token });
    const filtered = history.find((event) => event.action === 'connection.campaign_filter');
    check(filtered, 'GET /history has no connection.campaign_filter event');
    const filteredReport = await adsReport();
    checkEqual(spendOf(filteredReport, 'paid_meta'), META_KEPT_CENTS, 'Meta spend after the filter');
    check(
      !filteredReport.rows.some((row) => row.channel === 'paid_meta' && row.id === DROPPED_CAMPAIGN),
      `the dropped campaign still has spend: ${JSON.stringify(filteredReport.rows)}`,
    );
    await browser.screenshot(page, 'social-filter');

    step('LinkedIn refuses a wrong token, shown under the token field');
    const linkedinToken = linkedinOffer.getByLabel('LinkedIn access token');
    await linkedinToken.fill('not-a-linkedin-token');
    await linkedinOffer.getByRole('button', { name: 'Connect LinkedIn ads' }).click();
    const tokenError = linkedinOffer.locator('.field-error');
    await tokenError.waitFor();
    check((await tokenError.innerText()).startsWith('access_token: '), `the refusal: ${await tokenError.innerText()}`);
    checkEqual(await linkedinToken.getAttribute('aria-invalid'), 'true', 'the token field marked invalid');
    check(!(await connection('social_ads_b')), 'a refused token connected LinkedIn');

    step('without an account id, the accounts the token reaches are listed to choose from');
    await linkedinToken.fill(LINKEDIN_TOKEN);
    await linkedinOffer.getByRole('button', { name: 'Connect LinkedIn ads' }).click();
    const choices = linkedinOffer.locator('[data-choices="accounts"]');
    await choices.waitFor();
    checkEqual(await choices.locator('[data-ad-account]').count(), 3, 'LinkedIn accounts listed');
    check(await choices.getByRole('radio', { name: /LinkedIn Europe/ }).isDisabled(), 'the EUR account can be chosen');
    check(
      (await choices.locator(`[data-ad-account="${LINKEDIN_EURO}"]`).innerText()).includes('reports in EUR'),
      'the EUR account does not say why',
    );
    check(await choices.getByRole('radio', { name: /LinkedIn Agency/ }).isEnabled(), 'the second account is not offered');
    check(!(await connection('social_ads_b')), 'LinkedIn connected before a choice');
    checkEqual(await linkedinToken.inputValue(), LINKEDIN_TOKEN, 'the token kept for the second submit');
    check(
      await linkedinOffer.getByRole('button', { name: 'Connect the chosen account' }).isDisabled(),
      'connecting is offered before a choice',
    );
    await browser.screenshot(page, 'social-linkedin-choose');

    step('choosing one and connecting again makes the LinkedIn card');
    await choices.getByRole('radio', { name: /LinkedIn Shop/ }).check();
    checkEqual(await linkedinOffer.getByLabel('Ad account id (optional)').inputValue(), LINKEDIN_ACCOUNT, 'the id field follows');
    await linkedinOffer.getByRole('button', { name: 'Connect the chosen account' }).click();
    const linkedinCard = page.locator('article[data-connection="social_ads_b"]');
    await linkedinCard.waitFor();
    // The settings line; once the first sync has run, the card's status line names the
    // account too, so the words that are the settings' own pick it out.
    await linkedinCard.getByText(`ad account ${LINKEDIN_ACCOUNT} · reports in`).waitFor();
    check((await linkedinCard.innerText()).includes('LinkedIn access token (stored encrypted)'), 'how it connects');
    checkEqual(await page.getByRole('article', { name: 'Connect LinkedIn ads' }).count(), 0, 'LinkedIn offers left');
    const linkedin = await connection('social_ads_b');
    checkEqual([linkedin.status, linkedin.config.ad_account_id], ['active', LINKEDIN_ACCOUNT], 'the LinkedIn connection');
    check(linkedin.config.ad_account_id !== LINKEDIN_OTHER, 'the other account was connected');
    await synced('social_ads_b');

    step('the cards and the filter panel at phone width');
    await page.setViewportSize({ width: 375, height: 800 });
    await page.reload();
    await adsCard.getByRole('button', { name: 'Campaign filter' }).click();
    await adsCard.locator('[data-prefix="Shop"]').waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    check(overflow <= 1, `the connections page is ${overflow}px wider than a 375px phone`);
    await browser.screenshot(page, 'social-cards-phone');
    await page.setViewportSize({ width: 1280, height: 900 });

    step('the ads report lists Meta’s and LinkedIn’s campaigns with their network');
    const report = await adsReport();
    checkEqual(spendOf(report, 'paid_meta'), META_KEPT_CENTS, "the report's Meta spend");
    checkEqual(spendOf(report, 'paid_linkedin'), LINKEDIN_CENTS, "the report's LinkedIn spend against the fake's");
    await page.goto(`${baseUrl}/#/p/${slug}/ads`);
    await page.getByRole('heading', { name: `By campaign, last ${report.window_days} days` }).waitFor();
    checkEqual(await page.locator('.ads-table tbody tr').count(), report.rows.length, 'rows shown');
    const networks = { paid_meta: 'Meta Ads', paid_linkedin: 'LinkedIn Ads' };
    for (const row of report.rows.filter((r) => r.channel in networks)) {
      const shown = page.locator(`.ads-table tbody tr[data-row="${row.channel}:${row.id}"]`);
      checkEqual(await shown.locator('[data-col="spend_cents"]').innerText(), await usd(row.spend_cents), `${row.id}: spend`);
      check((await shown.innerText()).includes(networks[row.channel]), `${row.id} does not show ${networks[row.channel]}`);
    }
    check(report.rows.some((r) => r.channel === 'paid_meta' && r.id === KEPT_CAMPAIGN), 'no Meta campaign row');
    check(report.rows.some((r) => r.channel === 'paid_linkedin'), 'no LinkedIn campaign row');
    checkEqual(
      await page.locator('.ads-table tfoot [data-col="spend_cents"]').innerText(),
      await usd(report.totals.spend_cents),
      'total spend shown',
    );
    await browser.screenshot(page, 'social-ads-report');

    step("the agent's Meta proposal waits in the queue");
    const pending = (await apiOk('GET', '/queue', { token })).find((card) => card.id === proposalId);
    check(pending, 'GET /queue does not list the proposal');
    await page.goto(`${baseUrl}/#/queue`);
    const proposal = page.getByRole('article', { name: pending.headline });
    await proposal.waitFor();
    checkEqual(await proposal.locator('[data-money="from"]').innerText(), await usd(5000), 'the budget today on the card');
    checkEqual(await proposal.locator('[data-money="to"]').innerText(), await usd(7500), 'the proposed budget on the card');

    step('approving applies it on Meta; the approved card shows before and after');
    await proposal.getByRole('button', { name: 'Approve' }).click();
    await proposal.waitFor({ state: 'detached' });
    const approvedItem = page.locator(`.approved-list li[data-card="${proposalId}"]`);
    const applied = approvedItem.locator('[data-execution="applied"]');
    await applied.waitFor({ timeout: 30_000 });
    const approved = (await apiOk('GET', '/queue?status=approved', { token })).find((card) => card.id === proposalId);
    check(approved?.execution, 'GET /queue?status=approved has no execution for the card');
    checkEqual(
      [
        approved.execution.state,
        approved.execution.network,
        approved.execution.before_cents,
        approved.execution.after_cents,
        approved.execution.campaign_id,
      ],
      ['applied', 'meta', 5000, 7500, KEPT_CAMPAIGN],
      'the execution the API reports',
    );
    check((await applied.innerText()).includes('Applied on Meta Ads'), `the network is not named: ${await applied.innerText()}`);
    checkEqual(await applied.locator('[data-money="before"]').innerText(), await usd(5000), 'the budget before, shown');
    checkEqual(await applied.locator('[data-money="after"]').innerText(), await usd(7500), 'the budget after, shown');
    await browser.screenshot(page, 'social-queue');
  },
  { timeoutMs: 240_000 },
);
