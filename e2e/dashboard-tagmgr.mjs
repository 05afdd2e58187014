// Google Tag Manager in a browser, against the loopback Google fake: the product's Connections
// page offers Google Tag Manager; "Connect Google Tag Manager" leaves for Payback's confirmation
// page (which says publishing happens only when the person presses Publish), whose button sends
// the browser to the fake's consent page and back; the grant's picker lists the containers the
// fake's user reaches (and not the rival's), connects the chosen one and shows its card. The
// tracking page then shows the tag audit (not live), and "Publish to Tag Manager" asks first:
// nothing is published until "Publish now", after which the last publish and the live snippet
// show.
//
// Run by crates/testkit/tests/integration/dashboard_tagmgr.rs, which seeds the fake, makes the
// person and product, runs the sync job meanwhile and checks the fake's published version
// afterwards. Besides the harness's variables it needs:
//   PAYBACK_E2E_EMAIL      the person (password: the harness's PASSWORD)
//   PAYBACK_E2E_SLUG       their product
//   PAYBACK_E2E_CONTAINER  the container path to choose

import { apiOk, baseUrl, check, checkEqual, envSetting, logIn, runBrowserTest, sessionToken, step } from './lib/harness.mjs';

const email = envSetting('PAYBACK_E2E_EMAIL');
const slug = envSetting('PAYBACK_E2E_SLUG');
const container = envSetting('PAYBACK_E2E_CONTAINER');

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
  'dashboard-tagmgr',
  async (browser) => {
    const page = await browser.page();

    step('log in');
    await logIn(page, email);
    const token = await sessionToken(page);
    check(token, 'the app stored a session');
    const trackingKey = () => apiOk('GET', `/products/${slug}/tracking-key`, { token });

    step('the Connections page offers Google Tag Manager');
    await page.goto(`${baseUrl}/#/p/${slug}/connections`);
    const offer = page.getByRole('article', { name: 'Connect Google Tag Manager' });
    await offer.waitFor();
    await browser.screenshot(page, 'tagmgr-offer');

    step("Payback's confirmation page says publishing waits for the person, then Google's consent");
    await offer.getByRole('button', { name: 'Connect Google Tag Manager' }).click();
    await page.waitForURL((url) => url.pathname === '/connect/searchco/confirm');
    check((await page.locator('#product').innerText()).includes(`(${slug})`), 'the page does not name the product');
    check(
      (await page.locator('main').innerText()).includes('only when you press Publish in Payback'),
      'the page does not say when Payback publishes',
    );
    await browser.screenshot(page, 'tagmgr-confirm-page');
    await page.getByRole('button', { name: 'Continue to Google' }).click();
    await page.waitForURL((url) => /^#\/p\/[^/]+\/connections\?searchco_state=sc_/.test(url.hash));

    step("the picker lists the founder's containers, not the rival's");
    const radio = (name) => page.getByRole('radio', { name });
    await radio(/shop\.example \(GTM-SHOP1\)/).waitFor();
    checkEqual(await radio(/checkout \(GTM-SHOP2\)/).count(), 1, 'the second container');
    checkEqual(await page.locator('#google-grant-title').innerText(), 'Connect Google Tag Manager', 'the grant heading names the kind');
    checkEqual(await radio(/GTM-RIVAL/).count(), 0, "the rival's container");
    await browser.screenshot(page, 'tagmgr-pick');
    await radio(/shop\.example \(GTM-SHOP1\)/).check();
    await page.getByRole('button', { name: 'Connect what is chosen' }).click();
    const card = page.locator('article[data-connection="tagmgr"]');
    await card.waitFor();
    await card.getByText(container).first().waitFor();
    checkEqual(await card.locator('.connection-status').textContent(), 'active', 'the badge');

    step('the tracking page shows the audit: not live');
    await until('the first audit', async () => (await trackingKey()).gtm_deploy?.container_path === container);
    await page.goto(`${baseUrl}/#/p/${slug}/tracking`);
    const panel = page.getByRole('article', { name: 'Google Tag Manager' });
    await panel.waitFor();
    checkEqual(await panel.locator('[data-testid="snippet-live"]').innerText(), 'not live in the published version', 'the audit');
    checkEqual(await panel.locator('[data-testid="last-publish"]').innerText(), 'never', 'the last publish');
    await browser.screenshot(page, 'tagmgr-tracking-before');

    step('publishing asks first, and nothing is published before the person confirms');
    await panel.getByRole('button', { name: 'Publish to Tag Manager' }).click();
    await panel.getByText('it goes live on your site at once').waitFor();
    checkEqual((await trackingKey()).gtm_deploy.published, false, 'published before confirming');
    await browser.screenshot(page, 'tagmgr-confirm-publish');
    await panel.getByRole('button', { name: 'Publish now' }).click();

    step('published: the last publish and the live snippet show');
    await panel.locator('[data-testid="last-publish"]').filter({ hasText: 'Payback tracking snippet' }).waitFor();
    checkEqual(await panel.locator('[data-testid="snippet-live"]').innerText(), 'live in the published version', 'the audit after');
    const after = (await trackingKey()).gtm_deploy;
    checkEqual([after.published, after.snippet_live], [true, true], 'gtm_deploy after publishing');
    check((await panel.locator('[data-testid="last-publish"]').innerText()).includes(after.version_name), 'the version name');
    await browser.screenshot(page, 'tagmgr-tracking-after');
  },
);
