// "Detect integrations" on a product's Connections page in a browser: a URL of the local test
// site typed, the button pressed, and the page then says what the API says for it: the
// summary, each integration with its connected state, and the platform.
//
// Run by crates/testkit/tests/integration/dashboard_detect.rs, which starts the local site,
// makes the person and the product. Besides the harness's variables it needs:
//   PAYBACK_E2E_EMAIL   the person (password: the harness's PASSWORD)
//   PAYBACK_E2E_SLUG    their product
//   PAYBACK_E2E_SITE    the page to check

import { api, baseUrl, check, checkEqual, envSetting, logIn, runBrowserTest, sessionToken, step } from './lib/harness.mjs';

const email = envSetting('PAYBACK_E2E_EMAIL');
const slug = envSetting('PAYBACK_E2E_SLUG');
const SITE = envSetting('PAYBACK_E2E_SITE');

await runBrowserTest('dashboard-detect', async (browser) => {
  const page = await browser.page();

  step('log in');
  await logIn(page, email);
  const token = await sessionToken(page);
  check(token, 'the app stored a session');

  step('detect the integrations of the typed page');
  await page.goto(`${baseUrl}/#/p/${slug}/connections`);
  const part = page.locator('[data-part="detect-integrations"]');
  await part.waitFor();
  await part.getByLabel('Page URL (optional)').fill(SITE);
  await part.getByRole('button', { name: 'Detect integrations', exact: true }).click();
  const result = part.locator('[data-detection]');
  await result.waitFor();

  step('the page says what the API says');
  const answer = await api('POST', `/products/${slug}/detect-integrations`, { token, body: { url: SITE } });
  checkEqual(answer.status, 200, 'the API answered');
  checkEqual((await result.locator('[data-field="summary"]').innerText()).trim(), answer.body.summary, 'the summary');
  const shown = await result
    .locator('[data-integration]')
    .evaluateAll((items) => items.map((item) => [item.dataset.integration, item.dataset.connected]));
  checkEqual(
    shown,
    answer.body.integrations.map((found) => [found.key, found.connected ? 'yes' : 'no']),
    'the integrations and their connected state',
  );
  check(answer.body.integrations.length > 0, 'the site loads integrations');
  checkEqual(
    (await result.locator('[data-field="platform"]').innerText()).trim(),
    `Built on ${answer.body.platform.name}.`,
    'the platform',
  );
  await browser.screenshot(page, 'detect-integrations');
});
