// The growth actions page in a browser. The Rust driver (crates/testkit/tests/integration/
// dashboard_growth.rs) seeds a product whose numbers raise several actions (budget to move
// from Meta to Google, with an estimate; payments and ad networks to connect, without one);
// this script checks the list against GET /products/{slug}/growth-actions (order, headline,
// why, category, impact or "impact not estimated", links), that moving budget links to raising
// a proposal and raises none, that a prompt fetched for a picked agent is the API's, word for
// word, that Copy puts it on the clipboard and says "Copied", and that the window selector asks
// for the chosen window.
//
//   PAYBACK_URL=... PAYBACK_MAIL_DIR=... PAYBACK_E2E_EMAIL=... PAYBACK_E2E_SLUG=... node e2e/dashboard-growth.mjs

import { apiOk, baseUrl, check, checkEqual, envSetting, logIn, money, runBrowserTest, sessionToken, step } from './lib/harness.mjs';

async function text(locator) {
  await locator.first().waitFor();
  return (await locator.first().textContent()).trim();
}

/** The page's actions, in order, as the API's list: ids, headlines and each action's fields. */
async function checkListShown(page, list, currency) {
  const rows = page.locator('[data-action]');
  await rows.first().waitFor();
  const ids = await rows.evaluateAll((items) => items.map((item) => item.getAttribute('data-action')));
  checkEqual(JSON.stringify(ids), JSON.stringify(list.actions.map((action) => action.id)), 'action ids in order');
  const headlines = await page.locator('[data-action] [data-field="headline"]').allTextContents();
  checkEqual(
    JSON.stringify(headlines.map((headline) => headline.trim())),
    JSON.stringify(list.actions.map((action) => action.headline)),
    'headlines in order',
  );
  for (const action of list.actions) {
    const row = page.locator(`[data-action="${action.id}"]`);
    checkEqual(await text(row.locator('[data-field="why"]')), action.why, `${action.id} why`);
    checkEqual(await row.locator('[data-field="category"]').getAttribute('data-category'), action.category, `${action.id} category`);
    const impact = await text(row.locator('[data-field="impact"]'));
    if (action.estimated_impact_cents === null) {
      checkEqual(impact, 'impact not estimated', `${action.id} impact`);
    } else {
      const shown = await text(row.locator('[data-impact]'));
      checkEqual(shown, await money(page, action.estimated_impact_cents, currency), `${action.id} impact`);
    }
    const links = row.locator('[data-link-path]');
    checkEqual(await links.count(), action.links.length, `${action.id} link count`);
    for (const [index, link] of action.links.entries()) {
      const item = links.nth(index);
      checkEqual(await item.getAttribute('data-link-path'), link.path, `${action.id} link ${index} path`);
      checkEqual(await item.getAttribute('data-link-method'), link.method, `${action.id} link ${index} method`);
      checkEqual(await text(item.locator('a')), link.label, `${action.id} link ${index} label`);
    }
  }
}

runBrowserTest('dashboard-growth', async (browser) => {
  const page = await browser.page();
  const slug = envSetting('PAYBACK_E2E_SLUG');
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });

  step('log in as the seeded founder and open the growth tab');
  await page.goto(`${baseUrl}/#/login`);
  await logIn(page, envSetting('PAYBACK_E2E_EMAIL'));
  const token = await sessionToken(page);
  check(token, 'the app stored a session');
  await page.goto(`${baseUrl}/#/p/${slug}`);
  await page.getByRole('navigation', { name: 'Product pages' }).getByRole('link', { name: 'Growth' }).click();
  await page.waitForURL(new RegExp(`#/p/${slug}/growth$`));

  step('the ranked actions are the API\'s, in its order');
  const product = await apiOk('GET', `/products/${slug}`, { token });
  const list = await apiOk('GET', `/products/${slug}/growth-actions?days=30`, { token });
  check(list.actions.length >= 2, `the seeded product has at least two actions: ${JSON.stringify(list.actions.map((a) => a.id))}`);
  check(
    list.actions.some((action) => action.estimated_impact_cents === null) &&
      list.actions.some((action) => action.estimated_impact_cents !== null),
    'the seeded actions have an estimate and a missing one',
  );
  await checkListShown(page, list, product.currency);

  step('moving budget links to raising a proposal, and raises none');
  const move = list.actions.find((action) => action.kind === 'move_budget');
  check(move, `the seeded product has budget to move: ${JSON.stringify(list.actions.map((a) => a.id))}`);
  const moveRow = page.locator(`[data-action="${move.id}"]`);
  const proposal = moveRow.locator('[data-proposal]');
  checkEqual(await proposal.getAttribute('data-link-path'), `/products/${slug}/proposals`, 'the proposal link');
  checkEqual(await proposal.locator('a').getAttribute('href'), '/openapi.json', 'the proposal link goes to the API reference');
  check(await moveRow.locator('[data-field="proposal-note"]').isVisible(), 'the budget action says a person approves');
  const cac = moveRow.locator('[data-link-method="GET"] a');
  checkEqual(await cac.getAttribute('href'), `#/p/${slug}/attribution?days=30`, 'the CAC link opens the attribution page');

  step('a prompt for the picked agent is the API\'s, and Copy copies it');
  await page.getByLabel('Coding agent').selectOption('agent_c');
  await page.waitForURL(new RegExp(`#/p/${slug}/growth\\?tool=agent_c$`));
  const first = list.actions[0];
  const firstRow = page.locator(`[data-action="${first.id}"]`);
  await firstRow.getByRole('button', { name: 'Prompt for Cursor' }).click();
  const area = firstRow.locator('textarea[data-prompt-text]');
  await area.waitFor();
  const expected = await apiOk('POST', `/products/${slug}/growth-actions/${encodeURIComponent(first.id)}/prompt`, {
    token,
    body: { tool: 'agent_c', days: 30 },
  });
  checkEqual(expected.tool, 'agent_c', 'the prompt is for Cursor');
  checkEqual(await area.inputValue(), expected.prompt, `${first.id} prompt for Cursor`);
  check(await area.evaluate((element) => element.readOnly), 'the prompt is read-only');
  const copy = firstRow.getByRole('button', { name: 'Copy the prompt for Cursor' });
  await copy.click();
  await firstRow.locator('[role="status"]', { hasText: 'Copied' }).waitFor();
  checkEqual(await text(copy), 'Copied', 'the Copy button says Copied');
  checkEqual(await page.evaluate(() => navigator.clipboard.readText()), expected.prompt, 'the clipboard holds the prompt');
  await browser.screenshot(page, 'growth');

  step('another agent asks again: the prompt panel starts over for it');
  await page.getByLabel('Coding agent').selectOption('agent_e');
  await firstRow.getByRole('button', { name: 'Prompt for Aider' }).waitFor();
  checkEqual(await firstRow.locator('textarea[data-prompt-text]').count(), 0, 'the Cursor prompt is gone');

  step('the window selector reads the chosen window');
  await page.getByLabel('Window').selectOption('7');
  await page.waitForURL(/days=7/);
  const week = await apiOk('GET', `/products/${slug}/growth-actions?days=7`, { token });
  await page.locator('[data-window="7"]').waitFor();
  await checkListShown(page, week, product.currency);

  step('nothing was raised');
  const after = await apiOk('GET', `/products/${slug}`, { token });
  checkEqual(after.pending_cards, 0, 'no card waits in the queue');
});
