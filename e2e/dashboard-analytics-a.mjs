// Google Analytics in a browser, against the loopback Google fake: the product's Connections
// page offers Google Analytics; "Connect Google Analytics" leaves for Payback's confirmation
// page, whose button sends the browser to the fake's consent page and back; the grant's picker
// lists the properties the fake's user reaches (not the rival's), connects the chosen one and
// shows its card. The card's event maps editor then maps a GA4 event to a stage: a stage the
// sessions count is not offered, an unnamed event is refused with the server's words, and the
// saved maps are what the API then lists.
//
// Run by crates/testkit/tests/integration/dashboard_analytics_a.rs, which seeds the fake, makes
// the person and product, and checks the stored connection afterwards. Besides the harness's
// variables it needs:
//   PAYBACK_E2E_EMAIL     the person (password: the harness's PASSWORD)
//   PAYBACK_E2E_SLUG      their product
//   PAYBACK_E2E_PROPERTY  the property id to choose

import { apiOk, baseUrl, check, checkEqual, envSetting, logIn, runBrowserTest, sessionToken, step } from './lib/harness.mjs';

const email = envSetting('PAYBACK_E2E_EMAIL');
const slug = envSetting('PAYBACK_E2E_SLUG');
const property = envSetting('PAYBACK_E2E_PROPERTY');

await runBrowserTest('dashboard-analytics-a', async (browser) => {
  const page = await browser.page();

  step('log in');
  await logIn(page, email);
  const token = await sessionToken(page);
  check(token, 'the app stored a session');

  step('the Connections page offers Google Analytics');
  await page.goto(`${baseUrl}/#/p/${slug}/connections`);
  const offer = page.getByRole('article', { name: 'Connect Google Analytics', exact: true });
  await offer.waitFor();
  await browser.screenshot(page, 'analytics-offer');

  step("Payback's confirmation page, then Google's consent");
  await offer.getByRole('button', { name: 'Connect Google Analytics', exact: true }).click();
  await page.waitForURL((url) => url.pathname === '/connect/searchco/confirm');
  check((await page.locator('#product').innerText()).includes(`(${slug})`), 'the page does not name the product');
  check(
    (await page.locator('main').innerText()).includes('Change nothing in Google Analytics.'),
    'the page does not say Payback only reads',
  );
  await page.getByRole('button', { name: 'Continue to Google' }).click();
  await page.waitForURL((url) => /^#\/p\/[^/]+\/connections\?searchco_state=sc_/.test(url.hash));

  step("the picker lists the founder's properties, not the rival's");
  const radio = (name) => page.getByRole('radio', { name });
  await radio(/shop\.example \(111\)/).waitFor();
  checkEqual(await radio(/blog\.example \(112\)/).count(), 1, 'the second property');
  checkEqual(await page.locator('#google-grant-title').innerText(), 'Connect Google Analytics', 'the grant heading names the kind');
  checkEqual(await radio(/rival\.example/).count(), 0, "the rival's property");
  await browser.screenshot(page, 'analytics-pick');
  await radio(new RegExp(`\\(${property}\\)`)).check();
  await page.getByRole('button', { name: 'Connect what is chosen' }).click();
  const card = page.locator('article[data-connection="analytics_a"]');
  await card.waitFor();
  await card.getByText(`(${property})`).first().waitFor();
  checkEqual(await card.locator('.connection-status').textContent(), 'active', 'the badge');

  step('the event maps editor: sessions stages are not offered, an unnamed event is refused');
  await card.getByRole('button', { name: 'Event maps', exact: true }).click();
  const editor = card.locator('[data-event-maps="event_name"]');
  await editor.waitFor();
  await editor.locator('[data-maps="empty"]').waitFor();
  await editor.getByRole('button', { name: 'Add an event', exact: true }).click();
  const stages = await editor.locator('[data-map-row="0"] select[name="stage"] option').allInnerTexts();
  check(!stages.includes('visit') && !stages.includes('engaged'), `the stages offered: ${stages}`);
  await editor.getByRole('button', { name: 'Save event maps', exact: true }).click();
  const refusal = editor.getByRole('alert');
  await refusal.waitFor();
  check(
    (await refusal.innerText()).includes('event_maps[0].event_name: must not be empty'),
    `the refusal: ${await refusal.innerText()}`,
  );

  step('a mapped event is saved and the API lists it');
  await editor.locator('[data-map-row="0"] input[name="event_name"]').fill('sign_up');
  await editor.locator('[data-map-row="0"] select[name="stage"]').selectOption('signup');
  await editor.getByRole('button', { name: 'Add an event', exact: true }).click();
  await editor.locator('[data-map-row="1"] input[name="event_name"]').fill('generate_lead');
  await editor.locator('[data-map-row="1"] select[name="stage"]').selectOption('lead');
  await editor.getByRole('button', { name: 'Save event maps', exact: true }).click();
  await editor.locator('[data-maps="saved"]').waitFor();
  await browser.screenshot(page, 'analytics-event-maps');
  const listed = await apiOk('GET', '/connections', { token });
  const row = listed.find((c) => c.kind === 'analytics_a' && c.product_slug === slug);
  checkEqual(
    row.event_maps,
    [
      { event_name: 'sign_up', stage: 'signup' },
      { event_name: 'generate_lead', stage: 'lead' },
    ],
    'the stored maps',
  );
});
