// Google Ads in a browser, against the loopback Google fake: the product's Connections page
// offers Google Ads (no longer "coming later"); a connect link of no one's is refused in words;
// "Connect Google Ads" leaves for Payback's confirmation page (workspace, product, who started,
// what is read or changed), whose button sends the browser on to the fake's consent page, which sends the browser back through
// the service's callback with the grant's state: the first time the code exchange fails (the
// test schedules it) and the page says why; started again, the page lists the accounts the
// grant reaches (the manager and the EUR account shown but not choosable, currencies shown),
// connects the advertiser and shows its card (no "Sync now": the kind is synced on its own
// schedule; Test passes); the URL suffix panel shows what is missing and writes it only after
// asking; the first sync's spend shows at every level of the ads report, adding up to the
// fake's spend; approving the agent's proposal in the queue shows it applied on Google Ads with
// before and after.
//
// Run by crates/testkit/tests/integration/dashboard.rs (`search_ads_page`), which seeds the fake,
// makes the person, product and proposal, runs the sync job meanwhile and checks the fake's
// budget and suffix afterwards. Besides the harness's variables it needs:
//   PAYBACK_E2E_EMAIL        the person (password: the harness's PASSWORD)
//   PAYBACK_E2E_SLUG         their USD product
//   PAYBACK_E2E_PROPOSAL     the id of the agent's google proposal (campaign 111, $20 -> $35)
//   PAYBACK_E2E_SPEND_CENTS  the fake's spend in cents over the days it holds

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
const proposalId = envSetting('PAYBACK_E2E_PROPOSAL');
const SPEND_CENTS = Number(envSetting('PAYBACK_E2E_SPEND_CENTS'));
/** The advertiser the person connects, and the accounts shown but not choosable. */
const CUSTOMER = '1234567890';
const MANAGER = '9990001111';
const MANAGED = '5550002222';
const EURO = '4440003333';
const LEVELS = [
  ['campaign', 'campaign'],
  ['ad_group', 'ad group'],
  ['keyword', 'keyword'],
  ['ad', 'ad'],
];

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
  'dashboard-search-ads',
  async (browser) => {
    const page = await browser.page();

    step('log in');
    await logIn(page, email);
    const token = await sessionToken(page);
    check(token, 'the app stored a session');
    const usd = (cents) => money(page, cents, 'USD');
    const searchAds = async () =>
      (await apiOk('GET', '/connections', { token })).find((c) => c.product_slug === slug && c.kind === 'search_ads');
    const suffixPath = `/products/${slug}/connections/search-ads/url-suffix`;

    step('the Connections page offers Google Ads, and no longer lists search ads as coming later');
    await page.goto(`${baseUrl}/#/p/${slug}/connections`);
    const connectArticle = page.getByRole('article', { name: 'Connect Google Ads' });
    await connectArticle.waitFor();
    const later = await page.locator('.coming-later').innerText();
    check(!/search ads/i.test(later), `"coming later" still lists search ads: ${later}`);
    check(await connectArticle.getByRole('button', { name: 'Connect Google Ads' }).isEnabled(), 'the connect button');
    await browser.screenshot(page, 'search-ads-offer');

    step("a connect link that is no one's is refused in words");
    await page.goto(`${baseUrl}/#/p/${slug}/connections?searchco_state=sc_nobody`);
    await page.getByRole('alert').filter({ hasText: 'not one of this workspace' }).waitFor();

    // The state Google's consent page sent the browser back with, once it is not `previous`.
    const returnedState = async (previous) => {
      await page.waitForURL((url) => /^#\/p\/[^/]+\/connections\?searchco_state=sc_/.test(url.hash) && !url.hash.endsWith(`=${previous}`));
      return decodeURIComponent(page.url().split('searchco_state=')[1]);
    };
    const grantStatus = (state) => apiOk('GET', `/connect/searchco/status?state=${encodeURIComponent(state)}`, { token });
    // Payback's own page comes before Google's (issue 35): it names the workspace, the product
    // and who started the flow, and only its button sends the browser on to Google.
    const confirmOnPaybackPage = async (shot) => {
      await page.waitForURL((url) => url.pathname === '/connect/searchco/confirm');
      checkEqual(await page.getByRole('heading', { level: 1 }).innerText(), 'Connect Google to Payback?', 'the page heading');
      check((await page.locator('#product').innerText()).includes(`(${slug})`), 'the page does not name the product');
      check((await page.locator('#starter').innerText()).includes(email), 'the page does not name who started');
      check((await page.locator('main').innerText()).includes('change it only when a person presses the button'), 'the page does not say what changes');
      if (shot) await browser.screenshot(page, shot);
      await page.getByRole('button', { name: 'Continue to Google' }).click();
    };

    step('Connect Google Ads: a failed token exchange (the test made the first one fail) is shown in words');
    await page.goto(`${baseUrl}/#/p/${slug}/connections`);
    await connectArticle.getByRole('button', { name: 'Connect Google Ads' }).click();
    await confirmOnPaybackPage('search-ads-confirm-page');
    const failedState = await returnedState('');
    const failed = await grantStatus(failedState);
    checkEqual(failed.status, 'error', 'the grant after a failed token exchange');
    const failure = page.locator('[data-grant="error"]');
    await failure.waitFor();
    const reason = failed.error.replace(/\.$/, '');
    check((await failure.innerText()).includes(reason), `the page does not show the reason ${reason}: ${await failure.innerText()}`);
    await browser.screenshot(page, 'search-ads-grant-error');

    step("starting again: Google's consent page sends the browser back with a complete grant");
    const grant = page.getByRole('article', { name: 'Connect Google Ads' });
    await grant.getByRole('button', { name: 'Connect Google Ads' }).click();
    await confirmOnPaybackPage();
    const grantState = await returnedState(failedState);
    const status = await grantStatus(grantState);
    checkEqual([status.status, status.product_slug], ['complete', slug], 'the grant after consent');

    step('the accounts the grant reaches: managers and other currencies shown, not choosable');
    const radio = (name) => page.getByRole('radio', { name });
    await radio(/Shop Ads/).waitFor();
    checkEqual(
      await page.locator('[data-customer]').count(),
      status.options.ads_customers.length,
      'accounts listed against the status',
    );
    const option = (id) => page.locator(`[data-customer="${id}"]`).innerText();
    check(await radio(/Agency/).isDisabled(), 'the manager account can be chosen');
    check((await option(MANAGER)).includes('manager account'), 'the manager does not say why it cannot be chosen');
    check(await radio(/Euro shop/).isDisabled(), 'the EUR account can be chosen for a USD product');
    check((await option(EURO)).includes('reports in EUR'), 'the EUR account does not say why it cannot be chosen');
    check(await radio(/Client of agency/).isEnabled(), 'the managed client cannot be chosen');
    check((await option(MANAGED)).includes('managed by 999-000-1111'), 'the managed client does not name its manager');
    check((await option(CUSTOMER)).includes('currency USD'), "the advertiser's currency is not shown");
    await browser.screenshot(page, 'search-ads-pick');

    step('picking the advertiser connects it and shows its card');
    await radio(/Shop Ads/).check();
    await page.getByRole('button', { name: 'Connect this account' }).click();
    const card = page.locator('article[data-connection="search_ads"]');
    await card.waitFor();
    await page.getByText('Google Ads account Shop Ads is connected').waitFor();
    check(!page.url().includes('searchco_state'), `the address still carries the grant: ${page.url()}`);
    await card.getByText('account 123-456-7890 (Shop Ads)').waitFor();
    check((await card.innerText()).includes('reports in USD'), 'the card does not show the currency');
    checkEqual(await card.locator('.connection-status').textContent(), 'active', 'the badge');
    checkEqual(await card.getByRole('button', { name: 'Sync now' }).count(), 0, '"Sync now" buttons on the Google Ads card');
    await card.getByText('cannot be synced on demand').waitFor();
    checkEqual(await page.getByRole('heading', { name: 'Connect Google Ads' }).count(), 0, 'connect offers left');
    const connected = await searchAds();
    checkEqual(
      [connected.status, connected.config.customer_id, connected.config.customer_name, connected.config.currency],
      ['active', CUSTOMER, 'Shop Ads', 'USD'],
      'GET /connections after connecting',
    );

    step('the used grant cannot choose again, and says so when opened');
    const again = await api('POST', '/connect/searchco/select', { token, body: { state: grantState, ads_customer_id: MANAGED } });
    checkEqual(again.status, 409, 'choosing twice with one grant');
    await page.goto(`${baseUrl}/#/p/${slug}/connections?searchco_state=${encodeURIComponent(grantState)}`);
    await page.locator('[data-grant="done"]').waitFor();
    await page.getByRole('button', { name: 'Close', exact: true }).click();
    await page.locator('[data-grant="done"]').waitFor({ state: 'detached' });

    step('Test reads the account through the stored grant');
    await card.getByRole('button', { name: 'Test' }).click();
    await card.getByText(/^Test passed: /).waitFor();

    step('the URL suffix panel reads the account: auto-tagging, the suffix, what is missing');
    const before = await apiOk('GET', suffixPath, { token });
    checkEqual([before.complete, before.final_url_suffix, before.read_error], [false, 'ref=ads', null], 'the suffix before');
    await card.getByRole('button', { name: 'URL suffix' }).click();
    const panel = card.locator('.url-suffix');
    await panel.locator('[data-suffix="missing"]').filter({ hasText: 'utm_campaign (the campaign)' }).waitFor();
    checkEqual(await panel.locator('[data-suffix="current"]').innerText(), before.final_url_suffix, 'the current suffix shown');
    checkEqual(await panel.locator('[data-suffix="proposed"]').innerText(), before.proposed_suffix, 'the proposed suffix shown');
    check((await panel.locator('[data-suffix="auto-tagging"]').innerText()).startsWith('on'), 'auto-tagging is not shown on');
    for (const name of before.missing) {
      check((await panel.locator('[data-suffix="missing"]').innerText()).includes(name), `${name} is not listed as missing`);
    }
    await browser.screenshot(page, 'search-ads-suffix');

    step('writing asks first (it changes every ad), then shows what was added');
    await panel.getByRole('button', { name: 'Write suffix' }).click();
    await panel.getByText('changes the landing URL of every ad').waitFor();
    checkEqual((await apiOk('GET', suffixPath, { token })).final_url_suffix, 'ref=ads', 'the suffix before confirming');
    await panel.getByRole('button', { name: 'Write the suffix to Google Ads' }).click();
    const written = panel.locator('[data-suffix="written"]');
    await written.waitFor();
    check(
      (await written.innerText()).includes(`added ${before.missing.join(', ')}`),
      `the note does not say what was added: ${await written.innerText()}`,
    );
    await panel.locator('[data-suffix="complete"]').waitFor();
    const after = await apiOk('GET', suffixPath, { token });
    checkEqual([after.complete, after.final_url_suffix, after.missing], [true, before.proposed_suffix, []], 'the suffix after');
    check(after.deployed_at, 'no time of writing after the write');
    await browser.screenshot(page, 'search-ads-suffix-written');

    step('the card and its suffix panel at phone width');
    await page.setViewportSize({ width: 375, height: 800 });
    await panel.locator('[data-suffix="complete"]').waitFor();
    const cardOverflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    check(cardOverflow <= 1, `the connections page is ${cardOverflow}px wider than a 375px phone`);
    await browser.screenshot(page, 'search-ads-suffix-phone');
    await page.setViewportSize({ width: 1280, height: 900 });

    step('the first sync (the job, run by the test) reads the last 30 days');
    const synced = await until('the first sync', async () => {
      const row = await searchAds();
      return row && row.backfill_days >= 30 && !row.syncing ? row : null;
    });
    checkEqual([synced.status, synced.last_error], ['active', null], 'the connection after its first sync');
    await page.reload();
    await card.getByText('history read: last 30 days').waitFor();
    await browser.screenshot(page, 'search-ads-card');

    step('the ads report shows the spend at each level, adding up to the fake’s');
    await page.goto(`${baseUrl}/#/p/${slug}/ads`);
    for (const [level, noun] of LEVELS) {
      if (level !== 'campaign') {
        await page.getByLabel('Level', { exact: true }).selectOption(level);
        await page.waitForURL(new RegExp(`level=${level}$`));
      }
      const report = await apiOk('GET', `/products/${slug}/attribution/ads?days=30&level=${level}`, { token });
      await page.getByRole('heading', { name: `By ${noun}, last ${report.window_days} days` }).waitFor();
      checkEqual(report.totals.spend_cents, SPEND_CENTS, `${level}: the API's spend against the fake's`);
      checkEqual(
        report.rows.reduce((sum, row) => sum + row.spend_cents, 0),
        SPEND_CENTS,
        `${level}: the rows' spend (nothing counted twice)`,
      );
      checkEqual(await page.locator('.ads-table tbody tr').count(), report.rows.length, `${level}: rows shown`);
      for (const row of report.rows) {
        const at = `.ads-table tbody tr[data-row="${row.channel ? `${row.channel}:${row.id}` : row.id}"]`;
        checkEqual(
          await page.locator(`${at} [data-col="spend_cents"]`).innerText(),
          await usd(row.spend_cents),
          `${level} ${row.id}: spend shown`,
        );
      }
      checkEqual(
        await page.locator('.ads-table tfoot [data-col="spend_cents"]').innerText(),
        await usd(SPEND_CENTS),
        `${level}: total spend shown`,
      );
      if (level === 'campaign') {
        check(report.rows.some((row) => row.id === '111' && row.name === 'Search brand'), `campaign rows: ${JSON.stringify(report.rows)}`);
        await page.locator('.ads-table').getByText('Search brand').waitFor();
      }
      if (level === 'keyword') {
        check(report.rows.some((row) => row.name === 'buy shop'), `keyword rows: ${JSON.stringify(report.rows)}`);
      }
      await browser.screenshot(page, `search-ads-report-${level}`);
    }

    step("the agent's proposal waits in the queue");
    const pending = (await apiOk('GET', '/queue', { token })).find((card) => card.id === proposalId);
    check(pending, 'GET /queue does not list the proposal');
    await page.goto(`${baseUrl}/#/queue`);
    const proposal = page.getByRole('article', { name: pending.headline });
    await proposal.waitFor();
    checkEqual(await proposal.locator('[data-money="from"]').innerText(), await usd(2000), 'the budget today on the card');
    checkEqual(await proposal.locator('[data-money="to"]').innerText(), await usd(3500), 'the proposed budget on the card');

    step('approving applies it on Google Ads; the approved card shows before and after');
    await proposal.getByRole('button', { name: 'Approve' }).click();
    await proposal.waitFor({ state: 'detached' });
    const approvedItem = page.locator(`.approved-list li[data-card="${proposalId}"]`);
    const applied = approvedItem.locator('[data-execution="applied"]');
    await applied.waitFor();
    const approved = (await apiOk('GET', '/queue?status=approved', { token })).find((card) => card.id === proposalId);
    check(approved?.execution, 'GET /queue?status=approved has no execution for the card');
    checkEqual(
      [approved.execution.state, approved.execution.before_cents, approved.execution.after_cents, approved.execution.campaign_id],
      ['applied', 2000, 3500, '111'],
      'the execution the API reports',
    );
    checkEqual(await applied.locator('[data-money="before"]').innerText(), await usd(2000), 'the budget before, shown');
    checkEqual(await applied.locator('[data-money="after"]').innerText(), await usd(3500), 'the budget after, shown');
    checkEqual(await applied.locator('[data-execution-detail]').innerText(), approved.execution.detail, 'the detail line');
    const history = await apiOk('GET', `/history?product=${slug}`, { token });
    check(
      history.some((event) => event.action === 'spend.applied' && event.subject_ref === proposalId),
      'GET /history has no spend.applied event for the card',
    );
    await browser.screenshot(page, 'search-ads-queue');

    step('the queue at phone width');
    await page.setViewportSize({ width: 375, height: 800 });
    await page.reload();
    await applied.waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    check(overflow <= 1, `the queue is ${overflow}px wider than a 375px phone`);
    await browser.screenshot(page, 'search-ads-queue-phone');
  },
  { timeoutMs: 180_000 },
);
