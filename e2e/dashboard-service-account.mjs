// The search-engine grant's service-account path in a browser: on the product's Connections page
// the Search Console offer has "Use a service account instead"; it shows Payback's service
// account and the steps to give it access (as the API's start answers them), then lists what the
// account reaches after "I gave access: verify" (the one site the fake gave it), and connects the
// chosen site, proven by a live read. The card then says active and that no token is stored.
//
// Run by crates/testkit/tests/integration/dashboard_service_account.rs, which seeds the Google
// fake, writes the operator's key file, makes the person and the product, and checks the stored
// connection afterwards. Besides the harness's variables it needs:
//   PAYBACK_E2E_EMAIL   the person (password: the harness's PASSWORD)
//   PAYBACK_E2E_SLUG    their product, with nothing connected
//   PAYBACK_E2E_SITE    the site the service account was given

import { api, baseUrl, check, checkEqual, envSetting, logIn, runBrowserTest, sessionToken, step } from './lib/harness.mjs';

const email = envSetting('PAYBACK_E2E_EMAIL');
const slug = envSetting('PAYBACK_E2E_SLUG');
const SITE = envSetting('PAYBACK_E2E_SITE');

await runBrowserTest('dashboard-service-account', async (browser) => {
  const page = await browser.page();

  step('log in');
  await logIn(page, email);
  const token = await sessionToken(page);
  check(token, 'the app stored a session');

  step('the Search Console offer has the service-account path');
  await page.goto(`${baseUrl}/#/p/${slug}/connections`);
  const offer = page.getByRole('article', { name: 'Connect Google Search Console', exact: true });
  await offer.waitFor();
  await offer.getByText('Use a service account instead', { exact: true }).click();
  const path = offer.locator('[data-service-account="search_console"]');
  await path.getByRole('button', { name: 'Show the service account', exact: true }).click();

  step('it names the account and the steps, as the API does');
  const started = await api('POST', '/connect/searchco/service-account/start', {
    token,
    body: { product_slug: slug, kinds: ['search_console'] },
  });
  checkEqual(started.status, 200, 'the start answered');
  const shown = path.locator('[data-sa-email]');
  await shown.waitFor();
  checkEqual((await shown.innerText()).trim(), started.body.sa_email, 'the address shown');
  const steps = (await path.locator('[data-sa-steps] li').allInnerTexts()).map((text) => text.trim());
  checkEqual(steps, started.body.instructions.search_console, 'the steps shown');
  await browser.screenshot(page, 'service-account-steps');

  step('verify lists the site the account reaches, and it connects');
  await path.getByRole('button', { name: 'I gave access: verify', exact: true }).click();
  const option = path.locator(`[data-site="${SITE}"]`);
  await option.waitFor();
  checkEqual(await path.locator('[data-site]').count(), 1, 'only the site the account was given');
  await option.getByRole('radio').check();
  await browser.screenshot(page, 'service-account-choice');
  await path.getByRole('button', { name: 'Verify and connect this site', exact: true }).click();
  const card = page.locator('article.connection-card[data-connection="search_console"]');
  await card.waitFor();
  checkEqual((await card.locator('.connection-status').innerText()).trim(), 'active', 'the Search Console card');
  const words = await card.innerText();
  check(words.includes("Payback's service account (no token stored)"), `the card's words: ${words}`);
  await browser.screenshot(page, 'service-account-connected');
});
