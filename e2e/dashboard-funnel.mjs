// The funnel area in a browser: the tracking page shows the product's write key and rotating it
// in the page revokes the old one at once; the funnel page shows the same stage counts as the
// API for events sent through the API; the steps editor saves a custom definition (audited); a
// conversion definition added in the page is stored, refused in place when invalid, prefilled
// for editing, and deleted after confirmation.
//
//   PAYBACK_URL=... PAYBACK_MAIL_DIR=... PAYBACK_ARTIFACTS=... node e2e/dashboard-funnel.mjs

import {
  api,
  apiOk,
  baseUrl,
  check,
  checkEqual,
  runBrowserTest,
  sessionToken,
  signUpAndLogIn,
  step,
} from './lib/harness.mjs';

/** The `data-key` inside the snippet shown on the tracking page. */
async function shownKey(page) {
  const snippet = await page.locator('#tracking-snippet').textContent();
  const match = /data-key="([^"]+)"/.exec(snippet ?? '');
  check(match, `the snippet on the page carries a data-key: ${snippet}`);
  return match[1];
}

/** Stage volume per stage, summed over channels, as GET funnel answers it. */
function stageVolumes(rows) {
  const totals = {};
  for (const row of rows) totals[row.stage] = (totals[row.stage] ?? 0) + row.volume;
  return totals;
}

/** Events for six people: three from Google Ads, three from a newsletter; four sign up, two buy. */
function sampleEvents(run) {
  const events = [];
  for (let i = 1; i <= 6; i += 1) {
    const user_id = `${run}-u${i}`;
    const attribution =
      i <= 3
        ? { utm_source: 'google', utm_medium: 'cpc', utm_campaign: 'Search' }
        : { utm_source: 'newsletter', utm_medium: 'email' };
    events.push({ dedupe_id: `${run}-visit-${i}`, stage: 'visit', user_id, attribution });
    if (i <= 4) events.push({ dedupe_id: `${run}-signup-${i}`, stage: 'signup', user_id });
    if (i <= 2) events.push({ dedupe_id: `${run}-order-${i}`, stage: 'converted', user_id, value: 4900 });
  }
  return events;
}

runBrowserTest('dashboard-funnel', async (browser) => {
  const page = await browser.page();

  step('sign up, log in and create a product through the API');
  await signUpAndLogIn(page, 'funnel');
  const token = await sessionToken(page);
  check(token, 'the app stored a session');
  const run = Date.now().toString(36);
  const slug = `funnel-${run}`;
  await apiOk('POST', '/products', { token, body: { name: 'Funnel Shop', slug, currency: 'USD' } });
  const base = `/products/${slug}`;

  step('the tracking page shows the write key the API knows');
  await page.goto(`${baseUrl}/#/p/${slug}/tracking`);
  await page.locator('#tracking-snippet').waitFor();
  const oldKey = await shownKey(page);
  const info = await apiOk('GET', `${base}/tracking-key`, { token });
  checkEqual(oldKey, info.key, 'key in the snippet on the page');
  check(await page.getByText(info.ingest_url, { exact: true }).isVisible(), 'the ingest URL is shown');
  check(await page.getByText('not connected', { exact: true }).isVisible(), 'the tag manager reads "not connected"');
  await page.getByRole('button', { name: 'Copy snippet' }).click();
  await page.getByText(/^(Copied\.|Selected: press)/).first().waitFor();
  await browser.screenshot(page, 'funnel-tracking');

  step('rotating the key in the page: the new key is shown, the old one is refused');
  await page.getByRole('button', { name: 'Rotate key' }).click();
  await page.getByText('The current key stops working at once').waitFor();
  await page.getByRole('button', { name: 'Rotate now' }).click();
  await page.getByText('New key is live').waitFor();
  const rotated = await apiOk('GET', `${base}/tracking-key`, { token });
  check(rotated.key !== oldKey, 'the API has a new key after rotating');
  await page.waitForFunction(
    (key) => document.querySelector('#tracking-snippet')?.textContent?.includes(key),
    rotated.key,
  );
  checkEqual(await shownKey(page), rotated.key, 'key in the snippet after rotating');
  const refused = await api('POST', '/t/events', {
    body: { key: oldKey, events: [{ dedupe_id: `${run}-old-key`, stage: 'visit' }] },
  });
  checkEqual(refused.status, 401, 'POST /t/events with the rotated-out key');

  step('send events through the API with an API key');
  const apiKey = (await apiOk('POST', '/auth/keys', { token, body: { name: 'funnel e2e' } })).key;
  const sent = await apiOk('POST', `${base}/events`, { token: apiKey, body: { events: sampleEvents(run) } });
  checkEqual(sent.received, 12, 'events received');

  step('the funnel page shows the API stage counts');
  await page.goto(`${baseUrl}/#/p/${slug}/funnel`);
  await page.locator('tr[data-row="visit"]').waitFor();
  const volumes = stageVolumes(await apiOk('GET', `${base}/funnel?days=30`, { token }));
  checkEqual(volumes, { visit: 6, signup: 4, converted: 2 }, 'GET funnel stage volumes');
  for (const stage of ['visit', 'lead', 'signup', 'activated', 'converted']) {
    const shown = await page.locator(`tr[data-row="${stage}"] [data-cell="volume"]`).textContent();
    checkEqual(shown, String(volumes[stage] ?? 0), `people shown for ${stage}`);
  }
  await page.getByText('Using the built-in ladder').waitFor();
  // Signups from visits: 4 of 6.
  check(
    await page.locator('tr[data-row="signup"]').getByText('67%', { exact: true }).first().isVisible(),
    'the signup row shows 67% of visits',
  );

  step('a custom definition saved in the editor is what the API answers, and it is audited');
  await page.getByRole('button', { name: 'Remove Leads' }).click();
  await page.getByRole('button', { name: 'Remove Activated' }).click();
  await page.getByLabel('Label of step 2').fill('Trials');
  await page.getByRole('button', { name: 'Save funnel steps' }).click();
  await page.getByText('Funnel steps saved').waitFor();
  const definition = await apiOk('GET', `${base}/funnel/definition`, { token });
  checkEqual(
    definition.steps,
    [
      { stage: 'visit', label: 'Visits' },
      { stage: 'signup', label: 'Trials' },
      { stage: 'converted', label: 'Customers' },
    ],
    'saved funnel steps',
  );
  checkEqual(definition.is_default, false, 'is_default after saving');
  await page.getByText('Using custom steps').waitFor();
  await page.locator('tr[data-row="signup"]').getByText('Trials').waitFor();
  checkEqual(await page.locator('tr[data-row="lead"]').count(), 0, 'removed steps leave the report');
  const history = await apiOk('GET', `/history?product=${slug}&days=1&limit=50`, { token });
  check(
    history.some((event) => event.action === 'funnel.definition' && event.via === 'dashboard'),
    `history holds the funnel.definition edit from the dashboard: ${JSON.stringify(history.map((e) => [e.action, e.via]))}`,
  );
  await browser.screenshot(page, 'funnel-funnel');

  step('resetting to the built-in ladder asks first, then saves the ladder');
  await page.getByRole('button', { name: 'Reset to built-in ladder' }).click();
  await page.getByRole('button', { name: 'Reset the steps' }).click();
  await page.getByText('Back on the built-in ladder.').waitFor();
  const ladder = await apiOk('GET', `${base}/funnel/definition`, { token });
  checkEqual(
    ladder.steps.map((s) => s.stage),
    ['visit', 'lead', 'signup', 'activated', 'converted'],
    'steps after resetting',
  );
  await page.locator('tr[data-row="lead"]').waitFor();

  step('a conversion with a blank label is refused in place');
  await page.goto(`${baseUrl}/#/p/${slug}/conversions`);
  await page.getByText('No conversions defined yet').waitFor();
  await page.getByLabel('Key').fill('trial_signup');
  await page.getByLabel('Label').fill('   ');
  await page.getByRole('button', { name: 'Save conversion' }).click();
  await page.getByRole('alert').filter({ hasText: 'label' }).waitFor();

  step('a conversion added in the page is stored');
  await page.getByLabel('Label').fill('Trial signup');
  await page.getByLabel('Stage', { exact: true }).selectOption('signup');
  await page.getByLabel('Value', { exact: true }).selectOption('fixed');
  await page.getByLabel('Fixed value (USD)').fill('5');
  await page.getByRole('button', { name: 'Save conversion' }).click();
  await page.getByText('Saved Trial signup (trial_signup).').waitFor();
  const listed = (await apiOk('GET', `${base}/conversions`, { token })).conversions;
  checkEqual(
    listed.map((c) => [c.key, c.label, c.tier, c.stage, c.value_mode, c.fixed_value_cents, c.volume_30d, c.value_30d_cents]),
    [['trial_signup', 'Trial signup', 'secondary', 'signup', 'fixed', 500, 4, 2000]],
    'conversions after saving',
  );
  const row = page.locator('tr[data-row="trial_signup"]');
  await row.getByText('$20.00').waitFor();
  const report = await apiOk('GET', `${base}/conversions/report?days=30`, { token });
  checkEqual(report.conversions[0].current.count, 4, 'report count');
  const reported = page.locator('[data-conversion="trial_signup"]');
  await reported.getByText('new', { exact: true }).waitFor();
  checkEqual(await reported.locator('.metric-value').textContent(), '4', 'report count on the page');
  await reported.locator('tr[data-row="email"]').waitFor();
  await browser.screenshot(page, 'funnel-conversions');

  step('editing prefills the form');
  await page.getByRole('button', { name: 'Edit trial_signup' }).click();
  await page.getByRole('heading', { name: 'Edit Trial signup' }).waitFor();
  checkEqual(await page.getByLabel('Label').inputValue(), 'Trial signup', 'label prefilled');
  checkEqual(await page.getByLabel('Fixed value (USD)').inputValue(), '5', 'fixed value prefilled');

  step('deleting asks first, then removes it');
  await row.getByRole('button', { name: 'Delete', exact: true }).click();
  await row.getByRole('button', { name: 'Delete trial_signup' }).click();
  await page.getByText('Deleted trial_signup.').waitFor();
  checkEqual((await apiOk('GET', `${base}/conversions`, { token })).conversions, [], 'conversions after deleting');
  await page.getByText('No conversions defined yet').waitFor();

  step('the funnel page on a phone');
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto(`${baseUrl}/#/p/${slug}/funnel`);
  await page.locator('tr[data-row="visit"]').waitFor();
  await browser.screenshot(page, 'funnel-funnel-phone');
});
