// The portfolio and a product's reports in a browser: create a product through the form (an
// invalid slug is named before anything is sent, a taken one shows the server's refusal), send
// events from several channels plus revenue nobody can attribute, then check that the
// attribution page, the portfolio row, the overview, sales and ads show exactly the API's numbers.
//
//   PAYBACK_URL=... PAYBACK_MAIL_DIR=... PAYBACK_ARTIFACTS=... node e2e/dashboard-reports.mjs

import { apiOk, baseUrl, check, checkEqual, money, runBrowserTest, sessionToken, signUpAndLogIn, step } from './lib/harness.mjs';

/** Formats in the page, with the app's rules (format.ts), so both sides use one locale. */
async function formatter(page) {
  return {
    money: (cents, currency) => money(page, cents, currency),
    count: (value) => page.evaluate((n) => new Intl.NumberFormat().format(n), value),
  };
}

async function text(page, selector) {
  const locator = page.locator(selector).first();
  await locator.waitFor();
  return (await locator.textContent()).trim();
}

/** The events of one small shop: four identities from four channels and two unattributable sales. */
function shopEvents() {
  const start = Date.now() - 90 * 60_000;
  let minute = 0;
  const at = () => new Date(start + minute++ * 60_000).toISOString();
  return [
    // Paid search click, then a purchase naming the user (the anonymous id links them).
    { dedupe_id: 'v-a1', stage: 'visit', anonymous_id: 'anon-1', occurred_at: at(),
      attribution: { utm_source: 'google', utm_medium: 'cpc', utm_campaign: 'Brand Search', utm_term: 'shop app' } },
    { dedupe_id: 's-a1', stage: 'signup', anonymous_id: 'anon-1', user_id: 'user-1', occurred_at: at() },
    { dedupe_id: 'c-a1', stage: 'converted', user_id: 'user-1', value: 5000, occurred_at: at() },
    // Organic search by referrer; a first purchase and a later payment.
    { dedupe_id: 'v-u2', stage: 'visit', user_id: 'user-2', occurred_at: at(),
      attribution: { referrer: 'https://www.google.com/search?q=shop' } },
    { dedupe_id: 's-u2', stage: 'signup', user_id: 'user-2', occurred_at: at() },
    { dedupe_id: 'c-u2', stage: 'converted', user_id: 'user-2', value: 2500, occurred_at: at() },
    { dedupe_id: 'p-u2', stage: 'payment', user_id: 'user-2', value: 1500, occurred_at: at() },
    // A newsletter click that buys.
    { dedupe_id: 'v-u3', stage: 'visit', user_id: 'user-3', occurred_at: at(),
      attribution: { utm_source: 'newsletter', utm_medium: 'email', utm_campaign: 'launch' } },
    { dedupe_id: 'l-u3', stage: 'lead', user_id: 'user-3', email: 'user3@example.com', occurred_at: at() },
    { dedupe_id: 'c-u3', stage: 'converted', user_id: 'user-3', value: 1200, occurred_at: at() },
    // A social visitor who signs up but does not buy.
    { dedupe_id: 'v-u4', stage: 'visit', user_id: 'user-4', occurred_at: at(),
      attribution: { referrer: 'https://news.ycombinator.com/item?id=1' } },
    { dedupe_id: 's-u4', stage: 'signup', user_id: 'user-4', occurred_at: at() },
    // Revenue with no identity at all, and a customer who never had a channel: unattributed.
    { dedupe_id: 'c-none', stage: 'converted', value: 900, occurred_at: at() },
    { dedupe_id: 'c-u5', stage: 'converted', user_id: 'user-5', value: 700, occurred_at: at() },
  ];
}

runBrowserTest('dashboard-reports', async (browser) => {
  const page = await browser.page();
  const fmt = await formatter(page);

  step('sign up; the empty portfolio invites a first product');
  await signUpAndLogIn(page, 'reports');
  const token = await sessionToken(page);
  await page.getByText('No products yet — create your first product').waitFor();

  step('an invalid slug is named in place and nothing is created');
  const slug = `shop-${Date.now().toString(36)}`;
  await page.getByRole('textbox', { name: /^Name/ }).fill('Reports Shop');
  checkEqual(await page.getByRole('textbox', { name: /^Slug/ }).inputValue(), 'reports-shop', 'slug suggested from the name');
  await page.getByRole('textbox', { name: /^Slug/ }).fill('Bad_Slug!');
  await page.getByRole('button', { name: 'Create product' }).click();
  await page.getByText('Use only lowercase letters, digits and hyphens').waitFor();
  checkEqual(await page.getByRole('textbox', { name: /^Slug/ }).getAttribute('aria-invalid'), 'true', 'slug marked invalid');
  checkEqual((await apiOk('GET', '/portfolio', { token })).length, 0, 'products after the invalid submit');

  step('a valid form creates the product and opens its overview');
  await page.getByRole('textbox', { name: /^Slug/ }).fill(slug);
  await page.getByRole('textbox', { name: /^Domain/ }).fill('reports-shop.example');
  await page.getByRole('button', { name: 'Create product' }).click();
  await page.waitForURL(new RegExp(`#/p/${slug}$`));
  await page.getByRole('heading', { name: /Reports Shop/ }).waitFor();
  const created = await apiOk('GET', `/products/${slug}`, { token });
  checkEqual([created.name, created.currency, created.domain], ['Reports Shop', 'USD', 'reports-shop.example'], 'created product');

  step('a taken slug shows the server refusal next to the field');
  await page.goto(`${baseUrl}/#/`);
  await page.getByText('New product').click();
  await page.getByRole('textbox', { name: /^Name/ }).fill('Second Shop');
  await page.getByRole('textbox', { name: /^Slug/ }).fill(slug);
  await page.getByRole('button', { name: 'Create product' }).click();
  const refusal = await apiOk('POST', '/products', { token, body: { name: 'Again', slug } }, 409);
  await page.getByText(refusal.error, { exact: false }).waitFor();
  checkEqual((await apiOk('GET', '/portfolio', { token })).length, 1, 'products after the taken slug');

  step('events arrive through an API key');
  const key = (await apiOk('POST', '/auth/keys', { token, body: { name: 'reports e2e' } })).key;
  const events = shopEvents();
  const ingested = await apiOk('POST', `/products/${slug}/events`, { token: key, body: { events } });
  checkEqual(ingested, { ok: true, received: events.length }, 'ingestion answer');

  step('the attribution page shows the report row by row');
  const report = await apiOk('GET', `/products/${slug}/attribution?days=30`, { token });
  const unattributed = report.channels.find((row) => row.channel === 'unattributed');
  check(unattributed && unattributed.revenue_first_cents === 1600, `unattributed holds the two sales: ${JSON.stringify(unattributed)}`);
  check(report.channels.length >= 4, `channels of the report: ${report.channels.map((r) => r.channel)}`);
  await page.goto(`${baseUrl}/#/p/${slug}/attribution`);
  await page.locator('.attribution-table tbody tr').first().waitFor();
  checkEqual(await page.locator('.attribution-table tbody tr').count(), report.channels.length, 'channel rows shown');
  for (const row of report.channels) {
    const at = `.attribution-table tbody tr[data-row="${row.channel}"]`;
    checkEqual(await text(page, `${at} [data-col="revenue_first_cents"]`), await fmt.money(row.revenue_first_cents, 'USD'), `${row.channel} first-touch revenue`);
    checkEqual(await text(page, `${at} [data-col="revenue_last_cents"]`), await fmt.money(row.revenue_last_cents, 'USD'), `${row.channel} last-touch revenue`);
    checkEqual(await text(page, `${at} [data-col="customers_first"]`), await fmt.count(row.customers_first), `${row.channel} customers`);
    checkEqual(await text(page, `${at} [data-col="spend_cents"]`), await fmt.money(row.spend_cents, 'USD'), `${row.channel} spend`);
    if (row.cac_cents === null && row.channel !== 'unattributed') {
      checkEqual(await text(page, `${at} [data-col="cac_cents"]`), 'no customers', `${row.channel} CAC without customers`);
    }
    if (row.roas === null) checkEqual(await text(page, `${at} [data-col="roas"]`), '—', `${row.channel} ROAS without spend`);
  }
  const totals = '.attribution-table tfoot tr[data-row="totals"]';
  checkEqual(await text(page, `${totals} [data-col="revenue_first_cents"]`), await fmt.money(report.totals.revenue_cents, 'USD'), 'total revenue');
  checkEqual(await text(page, `${totals} [data-col="spend_cents"]`), await fmt.money(report.totals.spend_cents, 'USD'), 'total spend');
  checkEqual(await text(page, '[data-total="unattributed_cents"]'), await fmt.money(report.totals.unattributed_cents, 'USD'), 'unattributed total');
  checkEqual(await text(page, '[data-total="attributed_first_cents"]'), await fmt.money(report.totals.attributed_first_cents, 'USD'), 'attributed total');
  const revenueShare = `${Math.round((report.totals.attributed_first_cents / report.totals.revenue_cents) * 100)}%`;
  checkEqual(await text(page, '[data-coverage="revenue"] [data-col="share"]'), revenueShare, 'coverage: revenue with a channel');
  await page.getByText('No primary goal yet').waitFor();
  await browser.screenshot(page, 'reports-attribution');

  step('the window selector keeps the window in the address');
  await page.getByLabel('Window', { exact: true }).selectOption('7');
  await page.waitForURL(/attribution\?days=7$/);
  await page.getByRole('heading', { name: 'Channels, last 7 days' }).waitFor();

  step('the portfolio row shows the API numbers');
  const [row] = await apiOk('GET', '/portfolio', { token });
  checkEqual(row.revenue_30d_cents, report.totals.revenue_cents, 'portfolio revenue equals attribution revenue');
  await page.goto(`${baseUrl}/#/`);
  const portfolioRow = `tr[data-row="${slug}"]`;
  checkEqual(await text(page, `${portfolioRow} [data-col="revenue_30d_cents"]`), await fmt.money(row.revenue_30d_cents, 'USD'), 'portfolio revenue');
  checkEqual(await text(page, `${portfolioRow} [data-col="customers_30d"]`), await fmt.count(row.customers_30d), 'portfolio customers');
  checkEqual(await text(page, `${portfolioRow} [data-col="cac_cents"]`), row.cac_cents === null ? 'no customers' : await fmt.money(row.cac_cents, 'USD'), 'portfolio CAC');
  checkEqual(await text(page, `${portfolioRow} [data-trend="revenue"]`), 'new', 'revenue trend with nothing before');
  await browser.screenshot(page, 'reports-portfolio');

  step('the overview draws the built-in dashboard from the same numbers');
  await page.getByRole('link', { name: 'Reports Shop' }).click();
  await page.waitForURL(new RegExp(`#/p/${slug}$`));
  checkEqual(await text(page, '[data-widget="revenue"] [data-metric="revenue_30d"]'), await fmt.money(row.revenue_30d_cents, 'USD'), 'overview revenue metric');
  checkEqual(await text(page, '[data-widget="cac"] [data-metric="cac"]'), row.cac_cents === null ? 'no customers' : await fmt.money(row.cac_cents, 'USD'), 'overview CAC metric');
  checkEqual(await text(page, '[data-widget="revenue-series"] [data-series-total="revenue"]'), await fmt.money(row.revenue_30d_cents, 'USD'), 'revenue series total');
  checkEqual(
    await text(page, '[data-widget="revenue-by-channel"] li[data-row="unattributed"] [data-col="revenue_first"]'),
    await fmt.money(unattributed.revenue_first_cents, 'USD'),
    'unattributed bar',
  );
  const funnel = await apiOk('GET', `/products/${slug}/funnel?days=30`, { token });
  const signups = funnel.filter((r) => r.stage === 'signup').reduce((sum, r) => sum + r.volume, 0);
  checkEqual(await text(page, '[data-widget="funnel"] li[data-stage="signup"] [data-col="volume"]'), await fmt.count(signups), 'funnel signups');
  await page.locator('[data-widget="payback"] table, [data-widget="payback"] .empty').first().waitFor();
  await page.locator('[data-widget="revenue-series"] canvas').first().waitFor();
  await browser.screenshot(page, 'reports-overview');

  step('at phone width the overview stacks and fits');
  await page.setViewportSize({ width: 375, height: 800 });
  await page.reload();
  await page.locator('[data-widget="revenue-series"] canvas').first().waitFor();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  check(overflow <= 1, `the overview scrolls sideways by ${overflow}px at 375px`);
  await browser.screenshot(page, 'reports-overview-phone');
  await page.setViewportSize({ width: 1280, height: 900 });

  step('sales: every sale, and only the unattributed ones when picked');
  const sales = await apiOk('GET', `/products/${slug}/attribution/sales?days=30`, { token });
  await page.goto(`${baseUrl}/#/p/${slug}/sales`);
  checkEqual(await text(page, '[data-sales="total"]'), await fmt.count(sales.total), 'sales total');
  checkEqual(await page.locator('.table-scroll tbody tr').count(), sales.sales.length, 'sale rows');
  await page.getByLabel('First touch', { exact: true }).selectOption('unattributed');
  const unattributedSales = await apiOk('GET', `/products/${slug}/attribution/sales?days=30&channel=unattributed`, { token });
  await page.waitForURL(/channel=unattributed/);
  await page.getByText(`${unattributedSales.total} sales in the last 30 days first touched by Unattributed`).waitFor();

  step('ads: rows and sentinels as the API answers, at each level');
  for (const level of ['campaign', 'keyword']) {
    const ads = await apiOk('GET', `/products/${slug}/attribution/ads?days=30&level=${level}`, { token });
    await page.goto(`${baseUrl}/#/p/${slug}/ads${level === 'campaign' ? '' : `?level=${level}`}`);
    await page.locator('.ads-table tbody tr').first().waitFor();
    checkEqual(await page.locator('.ads-table tbody tr').count(), ads.rows.length, `${level} rows`);
    for (const ad of ads.rows) {
      const at = `.ads-table tbody tr[data-row="${ad.channel ? `${ad.channel}:${ad.id}` : ad.id}"]`;
      checkEqual(await text(page, `${at} [data-col="revenue_cents"]`), await fmt.money(ad.revenue_cents, 'USD'), `${level} ${ad.id} revenue`);
      checkEqual(await text(page, `${at} [data-col="customers"]`), await fmt.count(ad.customers), `${level} ${ad.id} customers`);
    }
    check(ads.rows.some((ad) => ad.id === 'unattributed' && ad.channel === null), `${level}: the unattributed sentinel is present`);
    await page.getByText('No paid touch (unattributed)').waitFor();
    if (level === 'campaign') {
      check(ads.rows.some((ad) => ad.id === 'Brand Search' && ad.revenue_cents === 5000), `the paid click's campaign earns the sale: ${JSON.stringify(ads.rows)}`);
      await browser.screenshot(page, 'reports-ads');
    }
  }
  await page.getByLabel('Level', { exact: true }).selectOption('ad');
  await page.waitForURL(/level=ad$/);
  await page.getByRole('heading', { name: 'By ad, last 30 days' }).waitFor();
});
