// The health audit in a browser. The Rust driver (crates/testkit/tests/integration/
// dashboard_pages.rs) seeds a product with paid buyers and Google spend but no connection and
// no funnel of its own; this script checks the page's score, grade and every check (status,
// evidence, action) against GET /products/{slug}/health-report, a failing check's action in
// particular, a skip's setup step, and that the window selector asks for the chosen window.
//
//   PAYBACK_URL=... PAYBACK_MAIL_DIR=... PAYBACK_E2E_EMAIL=... PAYBACK_E2E_SLUG=... node e2e/dashboard-health.mjs

import { apiOk, baseUrl, check, checkEqual, envSetting, logIn, runBrowserTest, sessionToken, step } from './lib/harness.mjs';

async function text(locator) {
  await locator.first().waitFor();
  return (await locator.first().textContent()).trim();
}

/** Every check of the report drawn as the API answers it. */
async function checkReportShown(page, report) {
  checkEqual(await text(page.locator('[data-score]')), String(report.score), 'score');
  checkEqual(await text(page.locator('[data-grade]')), report.grade, 'grade');
  for (const category of report.categories) {
    const at = page.locator(`[data-category="${category.key}"]`);
    checkEqual(
      await text(at.locator('[data-category-score]')),
      category.score === null ? 'no score' : `${category.score} / 100`,
      `${category.key} score`,
    );
    for (const item of category.checks) {
      const row = at.locator(`[data-check="${item.id}"]`);
      checkEqual(await row.getAttribute('data-status'), item.status, `${item.id} status`);
      checkEqual(await text(row.locator('[data-field="evidence"]')), item.evidence, `${item.id} evidence`);
      if (item.action === null) checkEqual(await row.locator('[data-field="action"]').count(), 0, `${item.id} has no action`);
      else checkEqual(await text(row.locator('[data-action-text]')), item.action, `${item.id} action`);
    }
  }
}

runBrowserTest('dashboard-health', async (browser) => {
  const page = await browser.page();
  const slug = envSetting('PAYBACK_E2E_SLUG');

  step('log in as the seeded founder and open the health tab');
  await page.goto(`${baseUrl}/#/login`);
  await logIn(page, envSetting('PAYBACK_E2E_EMAIL'));
  const token = await sessionToken(page);
  check(token, 'the app stored a session');
  await page.goto(`${baseUrl}/#/p/${slug}`);
  await page.getByRole('navigation', { name: 'Product pages' }).getByRole('link', { name: 'Health' }).click();
  await page.waitForURL(new RegExp(`#/p/${slug}/health$`));

  step('the score, grade and every check are the API\'s');
  const report = await apiOk('GET', `/products/${slug}/health-report?days=30`, { token });
  check(report.score !== null && report.grade !== null, `the seeded product has a score: ${report.score}`);
  await page.locator('[data-score]').waitFor();
  await checkReportShown(page, report);
  const checks = report.categories.flatMap((category) => category.checks);
  const failing = checks.find((item) => item.status === 'fail');
  check(failing, `the seeded product fails a check: ${JSON.stringify(checks.map((c) => [c.id, c.status]))}`);
  const failingRow = page.locator(`[data-check="${failing.id}"]`);
  checkEqual(await text(failingRow.locator('.health-badge')), 'Fail', `${failing.id} badge`);
  checkEqual(await text(failingRow.locator('[data-action-text]')), failing.action, `${failing.id} action`);
  check(await failingRow.getByText('To fix:').isVisible(), 'a failing check says what fixes it');
  const skipped = checks.find((item) => item.status === 'skip' && item.action);
  if (skipped) {
    const skipRow = page.locator(`[data-check="${skipped.id}"]`);
    checkEqual(await text(skipRow.locator('.health-badge')), 'Skipped', `${skipped.id} badge`);
    check(await skipRow.getByText('To set up:').isVisible(), `${skipped.id} shows its setup step`);
  }
  await browser.screenshot(page, 'health');

  step('the window selector reads the chosen window');
  await page.getByLabel('Window').selectOption('7');
  await page.waitForURL(new RegExp(`#/p/${slug}/health\\?days=7$`));
  const week = await apiOk('GET', `/products/${slug}/health-report?days=7`, { token });
  await page.locator('[data-window="7"]').waitFor();
  await checkReportShown(page, week);
});
