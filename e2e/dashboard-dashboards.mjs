// Stored dashboards in a browser. The Rust driver (crates/testkit/tests/integration/
// dashboard_pages.rs) seeds a founder's product with paid and newsletter buyers and Google
// spend; this script logs in, composes a dashboard from "CAC and revenue by channel" (the
// preview is the composer's spec, drawn before anything is saved), saves it, checks every
// widget's number against the report endpoints, makes one widget taller and sees that survive
// a reload, renames it, adds one widget and removes another, and deletes the dashboard after
// the question.
//
//   PAYBACK_URL=... PAYBACK_MAIL_DIR=... PAYBACK_E2E_EMAIL=... PAYBACK_E2E_SLUG=... node e2e/dashboard-dashboards.mjs

import { apiOk, baseUrl, check, checkEqual, envSetting, logIn, money, runBrowserTest, sessionToken, step } from './lib/harness.mjs';

const PROMPT = 'CAC and revenue by channel';

async function text(locator) {
  await locator.first().waitFor();
  return (await locator.first().textContent()).trim();
}

/** Checks each widget of `spec` drawn inside `scope` against the endpoint it reads. */
async function checkWidgetNumbers(page, scope, spec, slug, token) {
  const product = await apiOk('GET', `/products/${slug}`, { token });
  const metricCents = {
    cac: product.cac_cents,
    revenue_30d: product.revenue_30d_cents,
    spend_30d: product.spend_30d_cents,
    ltv: product.ltv_cents,
  };
  for (const widget of spec.widgets) {
    const at = scope.locator(`[data-widget="${widget.id}"]`);
    if (widget.type === 'metric') {
      const cents = metricCents[widget.metric];
      check(typeof cents === 'number', `the product row has a number for ${widget.metric}: ${cents}`);
      checkEqual(await text(at.locator(`[data-metric="${widget.metric}"]`)), await money(page, cents, 'USD'), `${widget.metric} tile`);
    } else if (widget.type === 'breakdown') {
      const report = await apiOk('GET', `/products/${slug}/attribution?days=${widget.days ?? 30}`, { token });
      const field = { spend: 'spend_cents', revenue_first: 'revenue_first_cents', revenue_last: 'revenue_last_cents' }[widget.measure];
      const rows = report.channels.filter((row) => row[field] !== 0);
      check(rows.length >= 2, `the attribution report has at least two channels with ${field}: ${JSON.stringify(report.channels)}`);
      for (const row of rows) {
        const shown = await text(at.locator(`li[data-row="${row.channel}"] [data-col="${widget.measure}"]`));
        checkEqual(shown, await money(page, row[field], 'USD'), `${row.channel} in the ${widget.measure} breakdown`);
      }
      checkEqual(await at.locator('li[data-row]').count(), rows.length, `channels in the ${widget.measure} breakdown`);
    } else if (widget.type === 'timeseries') {
      const rows = await apiOk('GET', `/products/${slug}/timeseries?days=${widget.days ?? 30}`, { token });
      const field = { spend: 'spend_cents', revenue: 'revenue_cents' }[widget.series];
      check(field, `the composer's line for this prompt is money: ${widget.series}`);
      const total = rows.reduce((sum, row) => sum + row[field], 0);
      check(total > 0, `the seeded ${widget.series} shows in the timeseries`);
      checkEqual(await text(at.locator(`[data-series-total="${widget.series}"]`)), await money(page, total, 'USD'), `${widget.series} line total`);
    }
  }
}

runBrowserTest('dashboard-dashboards', async (browser) => {
  const page = await browser.page();
  const slug = envSetting('PAYBACK_E2E_SLUG');
  const base = `/products/${slug}`;

  step('log in as the seeded founder; the product has no dashboards yet');
  await page.goto(`${baseUrl}/#/login`);
  await logIn(page, envSetting('PAYBACK_E2E_EMAIL'));
  const token = await sessionToken(page);
  check(token, 'the app stored a session');
  await page.goto(`${baseUrl}/#/p/${slug}`);
  await page.getByRole('navigation', { name: 'Product pages' }).getByRole('link', { name: 'Dashboards' }).click();
  await page.waitForURL(new RegExp(`#/p/${slug}/dashboards$`));
  await page.getByText('No dashboards yet').waitFor();

  step('the prompt previews the composer\'s spec, with real numbers, before saving');
  const composed = await apiOk('POST', `${base}/dashboards/generate`, { token, body: { prompt: PROMPT } });
  const types = composed.spec.widgets.map((widget) => widget.metric ?? widget.measure ?? widget.series ?? widget.type);
  for (const wanted of ['cac', 'revenue_30d', 'revenue_first']) check(types.includes(wanted), `the composer gives ${wanted}: ${types}`);
  await page.getByLabel('What do you want to see?').fill(PROMPT);
  await page.getByRole('button', { name: 'Preview dashboard' }).click();
  const preview = page.locator('.dashboard-preview');
  await preview.waitFor();
  checkEqual(await text(preview.locator('[data-matched]')), `Matched: ${composed.matched.join(', ')}`, 'matched words shown');
  checkEqual(
    await preview.locator('[data-widget]').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-widget'))),
    composed.spec.widgets.map((widget) => widget.id),
    'widgets in the preview',
  );
  checkEqual(await preview.getByLabel('Name').inputValue(), composed.name, 'suggested name');
  checkEqual((await apiOk('GET', `${base}/dashboards`, { token })).length, 0, 'dashboards stored before saving');
  await checkWidgetNumbers(page, preview, composed.spec, slug, token);
  await browser.screenshot(page, 'dashboards-preview');

  step('saving stores exactly the previewed spec and opens the dashboard');
  await preview.getByRole('button', { name: 'Save dashboard' }).click();
  await page.waitForURL(new RegExp(`#/p/${slug}/dashboards/[^/]+$`));
  const stored = await apiOk('GET', `${base}/dashboards`, { token });
  checkEqual(stored.length, 1, 'dashboards after saving');
  const [dashboard] = stored;
  checkEqual(dashboard.name, composed.name, 'stored name');
  checkEqual(dashboard.spec, composed.spec, 'stored spec (the preview\'s)');
  check(page.url().endsWith(`/dashboards/${dashboard.id}`), `the page opened the saved dashboard: ${page.url()}`);
  checkEqual(await text(page.locator('#dashboard-name')), composed.name, 'heading');
  await checkWidgetNumbers(page, page.locator('main'), dashboard.spec, slug, token);
  await browser.screenshot(page, 'dashboards-saved');

  step('a widget made taller is stored and drawn so after a reload');
  const line = dashboard.spec.widgets.find((widget) => widget.type === 'timeseries') ?? dashboard.spec.widgets.at(-1);
  const before = line.layout;
  check(before, `the composer placed ${line.id}`);
  await page.getByRole('button', { name: 'Edit widgets' }).click();
  const row = page.locator(`tr[data-arrange="${line.id}"]`);
  checkEqual(await text(row.locator('[data-cell="size"]')), `${before.w} × ${before.h}`, 'size before');
  await row.getByRole('button', { name: /^Taller:/ }).click();
  checkEqual(await text(row.locator('[data-cell="size"]')), `${before.w} × ${before.h + 1}`, 'size after Taller');
  await page.getByRole('button', { name: 'Save layout' }).click();
  await page.getByText('Layout saved.').waitFor();
  const resized = (await apiOk('GET', `${base}/dashboards`, { token }))[0];
  const after = resized.spec.widgets.find((widget) => widget.id === line.id).layout;
  checkEqual(after, { ...before, h: before.h + 1 }, 'stored layout after Taller');
  checkEqual(resized.updated_by, envSetting('PAYBACK_E2E_EMAIL'), 'updated_by');
  await page.reload();
  const drawn = page.locator(`[data-widget="${line.id}"]`);
  await drawn.waitFor();
  checkEqual(
    await drawn.evaluate((node) => node.style.gridRow.replace(/\s+/g, ' ')),
    `${before.y + 1} / span ${before.h + 1}`,
    'grid rows of the resized widget after reload',
  );

  step('name and description are edited in place');
  await page.getByText('Name and description', { exact: true }).click();
  const details = page.locator('.dashboard-details');
  await details.getByLabel('Name').fill('Acquisition');
  await details.getByLabel(/^Description/).fill('CAC and where revenue comes from');
  await details.getByRole('button', { name: 'Save name and description' }).click();
  await page.getByText('Name and description saved.').waitFor();
  const renamed = (await apiOk('GET', `${base}/dashboards`, { token }))[0];
  checkEqual([renamed.name, renamed.description], ['Acquisition', 'CAC and where revenue comes from'], 'stored name and description');
  checkEqual(await text(page.locator('#dashboard-name')), 'Acquisition', 'heading after renaming');
  checkEqual(await text(page.locator('#dashboard-description')), 'CAC and where revenue comes from', 'description shown');

  step('a widget added and another removed are stored, and the new one draws its number');
  const cac = renamed.spec.widgets.find((widget) => widget.metric === 'cac');
  await page.getByRole('button', { name: 'Edit widgets' }).click();
  await page.locator('.add-widget select[name="type"]').selectOption('metric');
  await page.locator('.add-widget select[name="metric"]').selectOption('ltv');
  await page.getByRole('button', { name: 'Add widget' }).click();
  await page.locator('tr[data-arrange="metric"]').waitFor();
  await page.locator(`tr[data-arrange="${cac.id}"]`).getByRole('button', { name: /^Remove:/ }).click();
  checkEqual(await page.locator(`tr[data-arrange="${cac.id}"]`).count(), 0, 'the removed widget left the editor');
  await page.getByRole('button', { name: 'Save layout' }).click();
  await page.getByText('Layout saved.').waitFor();
  const edited = (await apiOk('GET', `${base}/dashboards`, { token }))[0];
  checkEqual(
    edited.spec.widgets.map((widget) => widget.id),
    [...renamed.spec.widgets.map((widget) => widget.id).filter((id) => id !== cac.id), 'metric'],
    'widget ids after adding and removing',
  );
  const added = edited.spec.widgets.at(-1);
  checkEqual([added.type, added.metric, added.layout.x, added.layout.w, added.layout.h], ['metric', 'ltv', 0, 3, 3], 'the added widget');
  checkEqual(await page.locator(`main [data-widget="${cac.id}"]`).count(), 0, 'the removed widget is not drawn');
  await checkWidgetNumbers(page, page.locator('main'), edited.spec, slug, token);
  await browser.screenshot(page, 'dashboards-edited');

  step('deleting asks first, then the dashboard is gone');
  await page.getByRole('button', { name: 'Delete dashboard' }).click();
  await page.getByText('It cannot be undone').waitFor();
  await page.getByRole('button', { name: 'Delete Acquisition' }).click();
  await page.waitForURL(new RegExp(`#/p/${slug}/dashboards$`));
  await page.getByText('No dashboards yet').waitFor();
  checkEqual((await apiOk('GET', `${base}/dashboards`, { token })).length, 0, 'dashboards after deleting');
});
