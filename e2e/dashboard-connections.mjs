// The connections area in a browser: a product's Connections page refuses a publishable Stripe
// key in place (the server's words, naming api_key), connects with a secret test key and lists
// the connection as active with its redacted config; Test answers ok; Sync now runs until the
// page shows the last sync and "last 30 days", and the product's revenue is what the fake Stripe
// holds (4900 + 2900 - 900 refunded = 6900 cents); the page agrees with GET /connections; the
// all-connections table lists the row; disconnecting asks first, leaves the empty state and
// keeps the revenue.
//
// Needs a server with PAYBACK_SECRET_KEY set and its Stripe base URL on a fake that accepts
// exactly `sk_test_e2eKey123` (crates/testkit runs it so).
//
//   PAYBACK_URL=... PAYBACK_MAIL_DIR=... PAYBACK_ARTIFACTS=... node e2e/dashboard-connections.mjs

import { apiOk, baseUrl, check, checkEqual, runBrowserTest, sessionToken, signUpAndLogIn, step } from './lib/harness.mjs';

const GOOD_KEY = 'sk_test_e2eKey123';
const EXPECTED_REVENUE_CENTS = 4900 + 2900 - 900;

/** The timestamp as the app's `when()` formats it, in this browser's locale and zone. */
function shownTime(page, timestamp) {
  return page.evaluate(
    (ts) => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(ts)),
    timestamp,
  );
}

runBrowserTest('dashboard-connections', async (browser) => {
  const page = await browser.page();

  step('sign up, log in and create a product through the API');
  await signUpAndLogIn(page, 'connections');
  const token = await sessionToken(page);
  check(token, 'the app stored a session');
  const run = Date.now().toString(36);
  const slug = `stripe-${run}`;
  const name = `Stripe Shop ${run}`;
  await apiOk('POST', '/products', { token, body: { name, slug, currency: 'USD' } });
  const ofProduct = async () =>
    (await apiOk('GET', '/connections', { token })).filter((c) => c.product_slug === slug);
  const revenue = async () =>
    (await apiOk('GET', `/products/${slug}/attribution?days=30`, { token })).totals.revenue_cents;

  step('the product has no connections yet and offers the payments form');
  await page.goto(`${baseUrl}/#/p/${slug}/connections`);
  await page.getByText('No connections yet').waitFor();
  await page.getByRole('heading', { name: 'Connect payments (Stripe)' }).waitFor();
  const keyInput = page.getByLabel('Stripe secret or restricted key');
  checkEqual(await keyInput.getAttribute('type'), 'password', 'the key input hides what is typed');
  await page.getByRole('button', { name: 'Show key' }).click();
  checkEqual(await keyInput.getAttribute('type'), 'text', 'the key input after Show key');
  await page.getByRole('button', { name: 'Hide key' }).click();

  step('a publishable key is refused in place, naming api_key');
  await keyInput.fill('pk_test_x');
  await page.getByRole('button', { name: 'Connect payments' }).click();
  const refusal = page.getByRole('alert').filter({ hasText: 'api_key' });
  await refusal.waitFor();
  checkEqual((await ofProduct()).length, 0, 'connections after the refused key');

  step('connecting with a secret test key lists the connection as active');
  await keyInput.fill(GOOD_KEY);
  await page.getByLabel('Record successful charges as').selectOption('payment');
  await page.getByRole('button', { name: 'Connect payments' }).click();
  const card = page.getByRole('article', { name: /Payments \(Stripe\)/ });
  await card.waitFor();
  await card.getByText('secret key (test mode)').waitFor();
  check(await card.locator('.connection-status').textContent() === 'active', 'the badge reads active');
  check(await card.getByText('history read: nothing yet').isVisible(), 'no history read before the first sync');
  check(!(await page.getByText('No connections yet').isVisible()), 'the empty state is gone');
  const connected = await ofProduct();
  checkEqual(connected.map((c) => [c.kind, c.status]), [['payments', 'active']], 'GET /connections after connecting');
  check(!JSON.stringify(connected).includes(GOOD_KEY), 'the key never comes back from the API');

  step('Test reads the fake Stripe with the stored key');
  await card.getByRole('button', { name: 'Test' }).click();
  await card.getByText(/^Test passed: /).waitFor();

  step('Sync now runs until the page shows the last sync and the 30 days read');
  await card.getByRole('button', { name: 'Sync now' }).click();
  await card.getByText('history read: last 30 days').waitFor({ timeout: 30_000 });
  const [synced] = await ofProduct();
  checkEqual([synced.status, synced.backfill_days, synced.syncing], ['active', 30, false], 'GET /connections after the sync');
  check(synced.last_sync_at, 'the API has a last sync');
  await card.getByText(await shownTime(page, synced.last_sync_at), { exact: true }).first().waitFor();
  checkEqual(await card.locator('.connection-status').textContent(), synced.status, 'status shown vs API');
  checkEqual(await revenue(), EXPECTED_REVENUE_CENTS, "the product's 30-day revenue after the sync");
  await browser.screenshot(page, 'connections-product');

  step('the product page at phone width');
  await page.setViewportSize({ width: 375, height: 800 });
  await card.getByRole('button', { name: 'Sync now' }).waitFor();
  await browser.screenshot(page, 'connections-product-phone');
  await page.setViewportSize({ width: 1280, height: 900 });

  step('all connections lists the row, linking to the product page');
  await page.goto(`${baseUrl}/#/connections`);
  const row = page.locator(`tr[data-row="${synced.id}"]`);
  await row.waitFor();
  await row.getByRole('link', { name }).waitFor();
  check(await row.getByText('Payments (Stripe)').isVisible(), 'the row names the source');
  check(await row.getByText('last 30 days').isVisible(), 'the row shows the history read');
  await browser.screenshot(page, 'connections-all');
  await row.getByRole('link', { name }).click();
  await page.waitForURL(new RegExp(`#/p/${slug}/connections$`));

  step('disconnecting asks first, then leaves the empty state and the revenue');
  await card.getByRole('button', { name: 'Disconnect', exact: true }).click();
  await card.getByText('stays in your reports').waitFor();
  await page.getByRole('button', { name: 'Disconnect Payments (Stripe)' }).click();
  await page.getByText('No connections yet').waitFor();
  await page.getByRole('heading', { name: 'Connect payments (Stripe)' }).waitFor();
  checkEqual((await ofProduct()).length, 0, 'connections after disconnecting');
  checkEqual(await revenue(), EXPECTED_REVENUE_CENTS, 'revenue after disconnecting');
});
