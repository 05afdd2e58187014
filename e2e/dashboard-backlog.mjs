// A product page while the service is behind on folding its events (a burst, a backfill): the
// product frame says so in a status banner with the count the API reports, and the banner goes
// once the fold has caught up. The Rust test holds the fold before this runs, and lets it go on
// once this script has seen the banner (it writes the file PAYBACK_BACKLOG_SEEN names).
//
//   PAYBACK_URL=... PAYBACK_MAIL_DIR=... PAYBACK_BACKLOG_SEEN=... node e2e/dashboard-backlog.mjs

import { writeFileSync } from 'node:fs';
import { apiOk, baseUrl, check, envSetting, runBrowserTest, sessionToken, signUpAndLogIn, step } from './lib/harness.mjs';

const seen = envSetting('PAYBACK_BACKLOG_SEEN');

runBrowserTest('dashboard-backlog', async (browser) => {
  const page = await browser.page();

  step('sign up, create a product and send it three events while the fold is held');
  await signUpAndLogIn(page, 'backlog');
  const token = await sessionToken(page);
  const slug = `backlog-${Date.now().toString(36)}`;
  await apiOk('POST', '/products', { token, body: { name: 'Backlog Shop', slug } });
  const at = new Date(Date.now() - 60_000).toISOString();
  await apiOk('POST', `/products/${slug}/events`, {
    token,
    body: {
      events: [
        { dedupe_id: 'v1', stage: 'visit', anonymous_id: 'anon-1', occurred_at: at },
        { dedupe_id: 's1', stage: 'signup', anonymous_id: 'anon-1', user_id: 'u1', occurred_at: at },
        { dedupe_id: 'p1', stage: 'payment', user_id: 'u1', value: 4900, occurred_at: at },
      ],
    },
  });

  step('the product frame says how many events are pending, as a status');
  await page.goto(`${baseUrl}/#/p/${slug}/attribution`);
  const banner = page.getByRole('status').filter({ hasText: 'Catching up: 3 events pending' });
  await banner.waitFor();
  await browser.screenshot(page, 'backlog-banner');

  step('once the fold goes on, the banner goes');
  writeFileSync(seen, 'banner seen\n');
  // The frame reads the product again every 5 s while events are pending.
  await page.getByText(/Catching up/).waitFor({ state: 'detached', timeout: 30_000 });
  const product = await apiOk('GET', `/products/${slug}`, { token });
  check(product.revenue_30d_cents === 4900, `revenue once folded: ${product.revenue_30d_cents}`);
});
