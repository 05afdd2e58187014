// The weekly scorecard in a browser: the product's Scorecard tab shows the last completed ISO
// weeks with the visits the test sent, and the insight that visits rose; a template replaces the
// layout; the layout editor adds a typed row (MRR) whose cell the founder types and saves; the CSV
// export holds it; a share link opens the read-only view without a session and stops working
// once revoked; the sync to Google Sheets (the test's fake) links a spreadsheet.
//
// Run by crates/testkit/tests/integration/dashboard_scorecard.rs, which sends the events, points
// the Sheets sync at its fake and checks the synced sheet afterwards. Besides the harness's
// variables it needs:
//   PAYBACK_E2E_EMAIL          the founder (password: the harness's PASSWORD)
//   PAYBACK_E2E_SLUG           their product
//   PAYBACK_E2E_WEEK_LAST      the last completed ISO week, `YYYY-Www`
//   PAYBACK_E2E_WEEK_BEFORE    the week before it
//   PAYBACK_E2E_VISITS_LAST    visitors the test sent in the last week
//   PAYBACK_E2E_VISITS_BEFORE  visitors it sent in the week before

import { readFileSync } from 'node:fs';
import { api, baseUrl, check, checkEqual, envSetting, logIn, runBrowserTest, sessionToken, step } from './lib/harness.mjs';

const email = envSetting('PAYBACK_E2E_EMAIL');
const slug = envSetting('PAYBACK_E2E_SLUG');
const WEEK_LAST = envSetting('PAYBACK_E2E_WEEK_LAST');
const WEEK_BEFORE = envSetting('PAYBACK_E2E_WEEK_BEFORE');
const VISITS_LAST = Number(envSetting('PAYBACK_E2E_VISITS_LAST'));
const VISITS_BEFORE = Number(envSetting('PAYBACK_E2E_VISITS_BEFORE'));

await runBrowserTest('dashboard-scorecard', async (browser) => {
  const page = await browser.page();
  const cell = (p, metric, week) => p.locator(`tr[data-metric="${metric}"] [data-cell="${metric}|${week}"]`);

  step('log in and open the Scorecard tab');
  await logIn(page, email);
  await page.goto(`${baseUrl}/#/p/${slug}`);
  await page.getByRole('link', { name: 'Scorecard' }).click();
  await page.waitForURL(/#\/p\/[^/]+\/scorecard/);
  const table = page.locator('table.scorecard-matrix');
  await table.waitFor();
  checkEqual(await table.getAttribute('data-weeks'), '13', 'weeks shown by default');
  const headers = await page.locator('table.scorecard-matrix thead th[data-week]').allInnerTexts();
  checkEqual(headers[12].trim(), WEEK_LAST, 'the last column is the last completed week');
  checkEqual(headers[11].trim(), WEEK_BEFORE, 'the column before it');

  step('visits per week are the visitors the test sent');
  checkEqual((await cell(page, 'visits', WEEK_LAST).innerText()).trim(), String(VISITS_LAST), 'visits last week');
  checkEqual((await cell(page, 'visits', WEEK_BEFORE).innerText()).trim(), String(VISITS_BEFORE), 'visits the week before');
  checkEqual((await cell(page, 'visit_to_signup', WEEK_LAST).innerText()).trim(), '0%', 'no signups: 0%');

  step('the insight names the metric that moved');
  const rise = Math.round(((VISITS_LAST - VISITS_BEFORE) / VISITS_BEFORE) * 100);
  const insight = page.locator('[data-highlight="visits"]');
  await insight.waitFor();
  const insightText = await insight.innerText();
  check(insightText.includes(`Visits rose ${rise}%`), `insight reads: ${insightText}`);

  step('the current week can be shown');
  await page.getByRole('switch').check();
  await page.locator('table.scorecard-matrix[data-weeks="14"]').waitFor();
  await page.getByRole('switch').uncheck();
  await page.locator('table.scorecard-matrix[data-weeks="13"]').waitFor();

  step('apply the paid-acquisition template');
  await page.getByLabel('Template').selectOption('paid_acquisition');
  await page.getByRole('button', { name: 'Apply template' }).click();
  await page.locator('tr[data-metric="spend"]').waitFor();
  await page.getByText('Template: paid_acquisition.').waitFor();
  checkEqual(await page.locator('tr[data-metric="visits"]').count(), 0, 'visits is not in that template');
  checkEqual((await cell(page, 'spend', WEEK_LAST).innerText()).trim(), '—', 'no ad network: spend is null');

  step('add a typed row in the layout editor');
  await page.getByRole('button', { name: 'Edit layout' }).click();
  await page.getByLabel('New typed row key in section 1').fill('mrr');
  await page.getByLabel('New typed row label in section 1').fill('MRR');
  await page.getByRole('button', { name: 'Add typed row' }).first().click();
  await page.locator('[data-edit-row="mrr"]').waitFor();
  await page.getByRole('button', { name: 'Save layout' }).click();
  await page.locator('tr[data-metric="mrr"]').waitFor();
  await page.getByText('Custom layout.').waitFor();

  step('type a cell and save it');
  const input = page.getByLabel(`MRR, ${WEEK_LAST}`);
  await input.fill('1234');
  await page.getByRole('button', { name: 'Save typed cells' }).click();
  const token = await sessionToken(page);
  for (let i = 0; ; i++) {
    const matrix = (await api('GET', `/products/${slug}/scorecard`, { token })).body;
    const mrr = matrix.sections.flatMap((s) => s.rows).find((r) => r.metric === 'mrr');
    if (mrr && mrr.values.at(-1).value === 1234) break;
    check(i < 40, 'the typed cell was saved');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  for (let i = 0; (await page.getByLabel(`MRR, ${WEEK_LAST}`).inputValue()) !== '1234'; i++) {
    check(i < 40, 'the cell shows what was typed once the scorecard reloaded');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }

  step('export CSV');
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export CSV' }).click(),
  ]);
  checkEqual(file.suggestedFilename(), `${slug}-scorecard.csv`, 'file name');
  const csv = readFileSync(await file.path(), 'utf8').trim().split('\n');
  check(csv[0].startsWith('section,metric,label,unit,') && csv[0].endsWith(WEEK_LAST), `CSV header: ${csv[0]}`);
  const mrrLine = csv.find((line) => line.includes(',mrr,MRR,count,'));
  check(mrrLine && mrrLine.endsWith(',1234'), `CSV row of MRR: ${mrrLine}`);

  step('share a read-only link and open it without a session');
  await page.getByRole('button', { name: 'Create a share link' }).click();
  const link = page.locator('[data-share-url]');
  await link.waitFor();
  const shareUrl = await link.inputValue();
  check(shareUrl.startsWith(`${baseUrl}/#/shared/scorecard/`), `share URL: ${shareUrl}`);
  await page.evaluate(() => localStorage.removeItem('payback.session'));
  const viewer = await browser.context.newPage();
  await viewer.goto(shareUrl);
  await viewer.getByRole('heading', { name: /weekly scorecard/ }).waitFor();
  const typed = await viewer.evaluate(() => new Intl.NumberFormat().format(1234));
  checkEqual((await cell(viewer, 'mrr', WEEK_LAST).innerText()).trim(), typed, 'the shared view shows the typed cell');
  checkEqual(await viewer.locator('input').count(), 0, 'nothing to type in the shared view');
  checkEqual(await viewer.getByRole('button', { name: 'Edit layout' }).count(), 0, 'no editing in the shared view');
  await page.evaluate((t) => localStorage.setItem('payback.session', t), token);

  step('revoke the link; it stops working');
  await page.getByRole('button', { name: 'Revoke link' }).click();
  await page.getByRole('button', { name: 'Revoke the link' }).click();
  await page.getByRole('button', { name: 'Create a share link' }).waitFor();
  await viewer.reload();
  await viewer.getByRole('alert').filter({ hasText: 'not found' }).waitFor();
  await viewer.close();

  step('sync to Google Sheets');
  await page.getByRole('button', { name: 'Sync to Google Sheets' }).click();
  await page.getByText('Synced to a Google spreadsheet').waitFor();
  const opened = page.getByRole('link', { name: 'open it' });
  await opened.waitFor();
  check((await opened.getAttribute('href')).startsWith('https://docs.google.com/spreadsheets/d/'), 'the spreadsheet link');
  await browser.screenshot(page, 'scorecard');
});
