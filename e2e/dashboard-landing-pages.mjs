// The Pages area in a browser. The Rust driver (crates/testkit/tests/integration/
// dashboard_landing_pages.rs) seeds visits landing on a page of a local website and scripts the
// model gateway's answer; this script adds that page through the form, checks its traffic (the
// figures the driver computed, and the API's) and its daily series, analyzes it and reads the
// scored result, excludes it with a filter, switches the filter off and deletes it, and stops
// tracking the page. Without a replay source the page has no friction ("—") and no recordings.
//
//   PAYBACK_URL=... PAYBACK_MAIL_DIR=... PAYBACK_E2E_EMAIL=... PAYBACK_E2E_SLUG=...
//   PAYBACK_E2E_PAGE_URL=... PAYBACK_E2E_VISITS=... PAYBACK_E2E_PREVIOUS=... PAYBACK_E2E_CHANGE=...
//   PAYBACK_E2E_OVERALL=... node e2e/dashboard-landing-pages.mjs

import { apiOk, baseUrl, check, checkEqual, envSetting, logIn, runBrowserTest, sessionToken, step } from './lib/harness.mjs';

async function text(locator) {
  await locator.first().waitFor();
  return (await locator.first().textContent()).trim();
}

runBrowserTest('dashboard-landing-pages', async (browser) => {
  const page = await browser.page();
  const slug = envSetting('PAYBACK_E2E_SLUG');
  const pageUrl = envSetting('PAYBACK_E2E_PAGE_URL');
  const visits = Number(envSetting('PAYBACK_E2E_VISITS'));
  const previous = Number(envSetting('PAYBACK_E2E_PREVIOUS'));
  const change = Number(envSetting('PAYBACK_E2E_CHANGE'));
  const overall = Number(envSetting('PAYBACK_E2E_OVERALL'));

  step('log in and open the Pages tab: nothing tracked yet');
  await page.goto(`${baseUrl}/#/login`);
  await logIn(page, envSetting('PAYBACK_E2E_EMAIL'));
  const token = await sessionToken(page);
  check(token, 'the app stored a session');
  await page.goto(`${baseUrl}/#/p/${slug}`);
  await page.getByRole('navigation', { name: 'Product pages' }).getByRole('link', { name: 'Pages' }).click();
  await page.waitForURL(new RegExp(`#/p/${slug}/pages$`));
  await page.getByText('No landing pages yet').waitFor();

  step('add the page by its URL: its detail opens with its traffic');
  await page.getByLabel('Page URL').fill(pageUrl);
  await page.getByRole('button', { name: 'Add page' }).click();
  await page.waitForURL(new RegExp(`#/p/${slug}/pages/[0-9a-f-]+$`));
  const id = page.url().split('/').pop();
  await page.locator('[data-page="/pricing"]').waitFor();
  checkEqual(await text(page.locator('[data-figure="visits"]')), String(visits), 'visits in the window');
  checkEqual(await text(page.locator('[data-figure="previous"]')), String(previous), 'visits before');
  checkEqual(await text(page.locator('[data-figure="change"]')), `+${change}%`, 'the change');
  const detail = await apiOk('GET', `/products/${slug}/landing-pages/${id}?days=30`, { token });
  checkEqual(detail.traffic.visits, visits, 'the API counts the same visits');
  checkEqual(detail.traffic.previous_visits, previous, 'the API counts the same visits before');
  const series = page.locator('figure[data-series="Visits"]');
  checkEqual(Number(await series.getAttribute('data-total')), visits, 'the series sums to the visits');
  checkEqual(detail.traffic_series.length, 30, 'one series row a day');
  await page.getByText('Not analyzed yet.').waitFor();
  // No replay source is connected: no friction measured and no recordings, said so.
  checkEqual([detail.friction, detail.recordings.length, detail.recordings_url], [null, 0, null], 'friction and recordings in the API');
  await page.locator('[data-friction="none"]').waitFor();
  await page.locator('[data-recordings="none"]').waitFor();
  checkEqual(await page.locator('[data-recordings-url]').count(), 0, '"Watch all recordings" links without a replay source');

  step('Analyze: the scored result shows in place');
  await page.getByRole('button', { name: 'Analyze' }).click();
  const scored = page.locator('.analysis[data-status="ok"]');
  await scored.waitFor();
  checkEqual(await scored.locator('.overall-score').getAttribute('data-score'), String(overall), 'the overall score');
  checkEqual(await text(scored.locator('.analysis-summary')), 'Strong call to action.', 'the summary');
  for (const label of ['Headline clarity', 'Call to action', 'Objection handling']) {
    await scored.getByRole('cell', { name: label, exact: true }).waitFor();
  }
  const analyses = (await apiOk('GET', `/products/${slug}/landing-pages/${id}`, { token })).analyses;
  checkEqual(analyses.length, 1, 'one analysis stored');
  checkEqual(analyses[0].overall_score, overall, 'the API has the same score');
  await browser.screenshot(page, 'landing-page-detail');

  step('the list shows the page with its visits and score');
  await page.getByRole('link', { name: 'All pages' }).click();
  await page.waitForURL(new RegExp(`#/p/${slug}/pages$`));
  const row = page.locator('tr[data-row="/pricing"]');
  await row.waitFor();
  const cells = (await row.locator('td').allTextContents()).map((cell) => cell.trim());
  // No replay source counts the page: its friction is "—", not zeros.
  checkEqual(cells, ['/pricing', 'manual', String(visits), String(previous), `+${change}%`, '—', String(overall)], 'the row');

  step('a filter excludes the page; switched off, it does not');
  await page.getByLabel('Exclude pattern').fill('/pricing');
  await page.getByRole('button', { name: 'Add filter' }).click();
  await row.getByText('excluded').waitFor();
  const list = await apiOk('GET', `/products/${slug}/landing-pages`, { token });
  checkEqual(list.pages[0].is_excluded, true, 'the API says excluded');
  checkEqual(list.filters.map((filter) => filter.pattern), ['/pricing'], 'the filter is stored');
  await page.getByRole('switch', { name: 'Filter /pricing enabled' }).uncheck();
  await row.getByText('excluded').waitFor({ state: 'detached' });
  const off = await apiOk('GET', `/products/${slug}/landing-pages/filters`, { token });
  checkEqual(off.filters[0].enabled, false, 'the filter is off');
  await page.getByRole('button', { name: 'Delete filter /pricing' }).click();
  await page.getByText('No filters: every page counts.').waitFor();
  await browser.screenshot(page, 'landing-pages');

  step('stop tracking the page');
  await row.getByRole('link', { name: '/pricing' }).click();
  await page.getByRole('button', { name: 'Stop tracking', exact: true }).click();
  await page.getByRole('button', { name: 'Stop tracking /pricing' }).click();
  await page.waitForURL(new RegExp(`#/p/${slug}/pages$`));
  await page.getByText('No landing pages yet').waitFor();
  const after = await apiOk('GET', `/products/${slug}/landing-pages`, { token });
  checkEqual(after.pages.length, 0, 'no page tracked');
});
