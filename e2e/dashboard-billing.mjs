// Billing in a browser, against the loopback fake of Stripe: the settings' Billing page shows
// the new workspace's trial of the Growth plan (30 days left), its products (none billable
// yet: each is free for 30 days) and what it pays for (1); "Upgrade to Indie" leaves for the
// Checkout session's url (the fake's hosted page); back on the page, "Manage billing" leaves for
// the billing portal's.
//
// Run by crates/testkit/tests/integration/dashboard_billing.rs, which makes the person and the
// products and afterwards checks the session the fake received. Besides the harness's
// variables it needs:
//   PAYBACK_E2E_EMAIL      the person (password: the harness's PASSWORD)
//   PAYBACK_E2E_PRODUCTS   their products' names, comma-separated, oldest first
//   PAYBACK_E2E_STRIPE     the fake Stripe's origin, where the hosted pages are

import { api, baseUrl, check, checkEqual, envSetting, logIn, runBrowserTest, sessionToken, step } from './lib/harness.mjs';

const email = envSetting('PAYBACK_E2E_EMAIL');
const products = envSetting('PAYBACK_E2E_PRODUCTS').split(',');
const stripe = envSetting('PAYBACK_E2E_STRIPE');

await runBrowserTest('dashboard-billing', async (browser) => {
  const page = await browser.page();

  step('log in and open Billing from the settings');
  await logIn(page, email);
  const token = await sessionToken(page);
  check(token, 'the app stored a session');
  await page.goto(`${baseUrl}/#/settings/profile`);
  await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Billing', exact: true }).click();
  await page.getByRole('heading', { name: 'Your plan' }).waitFor();
  check(page.url().endsWith('#/billing'), `the billing page's address: ${page.url()}`);

  step('the trial of the Growth plan, as the API says');
  const summary = await api('GET', '/billing', { token });
  checkEqual(summary.status, 200, 'GET /billing');
  checkEqual((await page.getByTestId('billing-plan').innerText()).trim(), 'Growth', 'the plan shown');
  checkEqual((await page.getByTestId('billing-status').innerText()).trim(), 'Trial', 'the status shown');
  const trial = (await page.getByTestId('billing-trial').innerText()).trim();
  check(trial.startsWith(`${summary.body.trial_days_left} days left`), `the trial shown: ${trial}`);
  checkEqual(summary.body.trial_days_left, 30, 'a new workspace has 30 days');

  step('the products and what is paid for');
  const table = page.getByRole('table', { name: 'Products and billing' });
  const rows = await table.locator('tbody tr').allInnerTexts();
  checkEqual(rows.length, products.length, 'one row per product');
  products.forEach((name, at) => {
    check(rows[at].includes(name), `row ${at}: ${rows[at]}`);
    check(rows[at].includes('Not yet'), `row ${at} is not billed yet: ${rows[at]}`);
  });
  checkEqual((await page.getByTestId('billing-quantity').innerText()).trim(), String(summary.body.quantity), 'the quantity');
  checkEqual(summary.body.quantity, 1, 'no billable product pays for one');
  check((await page.getByRole('button', { name: 'Manage billing' }).count()) === 0, 'no portal before a customer');
  await browser.screenshot(page, 'billing-trial');

  step('upgrade through Checkout: the browser goes to the session');
  await page.getByRole('button', { name: 'Upgrade to Indie', exact: true }).click();
  await page.waitForURL((url) => url.href.startsWith(`${stripe}/c/pay/`));
  checkEqual(await page.title(), 'Fake Stripe Checkout', "the fake's checkout page");
  await browser.screenshot(page, 'billing-checkout');

  step('back on the page, manage billing in the portal');
  await page.goto(`${baseUrl}/#/billing?checkout=canceled`);
  await page.getByText('Checkout was canceled; nothing changed.').waitFor();
  await page.getByRole('button', { name: 'Manage billing', exact: true }).click();
  await page.waitForURL((url) => url.href.startsWith(`${stripe}/p/session/`));
  checkEqual(await page.title(), 'Fake Stripe billing portal', "the fake's portal page");
});
