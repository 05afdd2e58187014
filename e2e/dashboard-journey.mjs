// The founder's whole journey in one browser: sign up, verify from the mailed link, log in,
// create a product, mint an API key, send events through the API, see the attribution page show
// exactly the API's numbers, have the key (an agent) propose a spend change, approve it in the
// queue, and find the approval in history. Screenshots of each main page go to the artifacts.
//
//   PAYBACK_URL=... PAYBACK_MAIL_DIR=... PAYBACK_ARTIFACTS=... node e2e/dashboard-journey.mjs

import { apiOk, baseUrl, check, checkEqual, money, runBrowserTest, sessionToken, signUpAndLogIn, step } from './lib/harness.mjs';

async function cellText(page, selector) {
  const cell = page.locator(selector).first();
  await cell.waitFor();
  return (await cell.textContent()).trim();
}

/** Three buyers from three channels, a visitor who never buys, and a sale nobody can place. */
function journeyEvents() {
  const start = Date.now() - 60 * 60_000;
  let minute = 0;
  const at = () => new Date(start + minute++ * 60_000).toISOString();
  return [
    { dedupe_id: 'j-v1', stage: 'visit', anonymous_id: 'a-1', occurred_at: at(),
      attribution: { utm_source: 'google', utm_medium: 'cpc', utm_campaign: 'search', gclid: 'g-1' } },
    { dedupe_id: 'j-s1', stage: 'signup', anonymous_id: 'a-1', user_id: 'u-1', occurred_at: at() },
    { dedupe_id: 'j-c1', stage: 'converted', user_id: 'u-1', value: 4900, occurred_at: at() },
    { dedupe_id: 'j-v2', stage: 'visit', user_id: 'u-2', occurred_at: at(),
      attribution: { referrer: 'https://www.bing.com/search?q=journey' } },
    { dedupe_id: 'j-c2', stage: 'converted', user_id: 'u-2', value: 2900, occurred_at: at() },
    { dedupe_id: 'j-v3', stage: 'visit', user_id: 'u-3', occurred_at: at(),
      attribution: { utm_source: 'newsletter', utm_medium: 'email' } },
    { dedupe_id: 'j-c3', stage: 'converted', user_id: 'u-3', value: 1900, occurred_at: at() },
    { dedupe_id: 'j-v4', stage: 'visit', anonymous_id: 'a-4', occurred_at: at() },
    { dedupe_id: 'j-none', stage: 'payment', value: 1000, occurred_at: at() },
  ];
}

runBrowserTest('dashboard-journey', async (browser) => {
  const page = await browser.page();

  step('sign up, verify from the mail, log in');
  const email = await signUpAndLogIn(page, 'journey');
  const token = await sessionToken(page);
  check(token && token.startsWith('svc_sess_'), 'the app holds a session token');
  await browser.screenshot(page, 'journey-portfolio-empty');

  step('create a product through the form');
  const slug = `journey-${Date.now().toString(36)}`;
  await page.getByRole('textbox', { name: /^Name/ }).fill('Journey Shop');
  await page.getByRole('textbox', { name: /^Slug/ }).fill(slug);
  await page.getByRole('button', { name: 'Create product' }).click();
  await page.waitForURL(new RegExp(`#/p/${slug}$`));
  await page.getByRole('heading', { name: /Journey Shop/ }).waitFor();

  step('mint an API key in the browser; it is shown once');
  await page.goto(`${baseUrl}/#/settings/keys`);
  await page.getByLabel('Key name').fill('growth agent');
  await page.getByRole('button', { name: 'Create key' }).click();
  const key = await page.getByRole('textbox', { name: 'New API key' }).inputValue();
  check(key.startsWith('svc_live_'), `the shown key is an account key: ${key.slice(0, 12)}`);

  step('send events through the API with that key');
  const events = journeyEvents();
  checkEqual(
    await apiOk('POST', `/products/${slug}/events`, { token: key, body: { events } }),
    { ok: true, received: events.length },
    'ingestion answer',
  );

  step('the attribution page shows the API numbers, unattributed on its own row');
  const report = await apiOk('GET', `/products/${slug}/attribution?days=30`, { token });
  checkEqual(report.totals.revenue_cents, 4900 + 2900 + 1900 + 1000, 'revenue in the report');
  checkEqual(report.totals.unattributed_cents, 1000, 'unattributed revenue in the report');
  await page.goto(`${baseUrl}/#/p/${slug}/attribution`);
  await page.locator('.attribution-table tbody tr').first().waitFor();
  checkEqual(await page.locator('.attribution-table tbody tr').count(), report.channels.length, 'channel rows');
  for (const row of report.channels) {
    const at = `.attribution-table tbody tr[data-row="${row.channel}"]`;
    checkEqual(await cellText(page, `${at} [data-col="revenue_first_cents"]`), await money(page, row.revenue_first_cents, 'USD'), `${row.channel} revenue`);
    checkEqual(await cellText(page, `${at} [data-col="customers_first"]`), String(row.customers_first), `${row.channel} customers`);
  }
  checkEqual(
    await cellText(page, '[data-total="unattributed_cents"]'),
    await money(page, report.totals.unattributed_cents, 'USD'),
    'unattributed total',
  );
  await browser.screenshot(page, 'journey-attribution');

  step('the overview and the portfolio render the same product');
  await page.goto(`${baseUrl}/#/p/${slug}`);
  await page.locator('[data-widget]').first().waitFor();
  await browser.screenshot(page, 'journey-overview');
  await page.goto(`${baseUrl}/#/`);
  const [row] = await apiOk('GET', '/portfolio', { token });
  checkEqual(
    await cellText(page, `tr[data-row="${slug}"] [data-col="revenue_30d_cents"]`),
    await money(page, row.revenue_30d_cents, 'USD'),
    'portfolio revenue',
  );
  await browser.screenshot(page, 'journey-portfolio');

  step('the agent proposes a spend change with its key');
  const proposal = await apiOk(
    'POST',
    `/products/${slug}/proposals`,
    { token: key, body: { network: 'google', from_cents: 2000, to_cents: 3500, rationale: 'Search buyers pay back inside a week; raise the cap.' } },
    202,
  );
  const [card] = await apiOk('GET', '/queue', { token });
  checkEqual(card.id, proposal.proposal_id, 'the proposal waits in the queue');
  // The agent itself cannot approve.
  const refused = await fetch(`${baseUrl}/queue/${card.id}/approve`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: '{}',
  });
  checkEqual(refused.status, 403, 'an API key approving');

  step('approve it in the queue');
  await page.goto(`${baseUrl}/#/queue`);
  const article = page.getByRole('article', { name: card.headline });
  await article.waitFor();
  checkEqual(await article.locator('[data-money="to"]').innerText(), await money(page, 3500, 'USD'), 'proposed budget on the card');
  await browser.screenshot(page, 'journey-queue');
  await article.getByRole('button', { name: 'Approve' }).click();
  await page.getByText('Nothing waiting for you').waitFor();
  checkEqual((await apiOk('GET', '/queue', { token })).length, 0, 'cards left after approval');

  step('the approval is in history, by the person, via the dashboard');
  const approvals = (await apiOk('GET', '/history', { token })).filter((e) => e.action === 'card.approve');
  checkEqual(approvals.length, 1, 'approvals in GET /history');
  checkEqual([approvals[0].actor, approvals[0].via, approvals[0].subject_ref], [email, 'dashboard', card.id], 'approval event');
  await page.goto(`${baseUrl}/#/history`);
  const approvalRow = page.locator('table tbody tr').filter({ hasText: 'card.approve' }).first();
  await approvalRow.waitFor();
  check((await approvalRow.innerText()).includes(email), 'the history row names the approver');
  await browser.screenshot(page, 'journey-history');

  step('the queue at phone width');
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto(`${baseUrl}/#/`);
  await page.getByRole('heading', { name: 'Portfolio' }).waitFor();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  check(overflow <= 0, `the portfolio scrolls sideways by ${overflow}px at 375px`);
  await browser.screenshot(page, 'journey-portfolio-phone');
});
