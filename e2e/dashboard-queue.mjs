// The approval queue in a browser: an agent (an API key) proposes two spend changes, a person
// approves one, snoozes and restores the other, lowers the product's cap in the policy editor
// and sees the next approval refused on the card; the History, Spend, Distribution and
// portfolio policy pages show the same facts the API holds.

import {
  api,
  apiOk,
  baseUrl,
  check,
  checkEqual,
  money,
  runBrowserTest,
  sessionToken,
  signUpAndLogIn,
  step,
} from './lib/harness.mjs';

await runBrowserTest('dashboard-queue', async (browser) => {
  const page = await browser.page();

  step('sign up, create a product and an API key');
  const email = await signUpAndLogIn(page, 'queue');
  const token = await sessionToken(page);
  check(token, 'the app stored no session token after logging in');
  const slug = `queue-${Date.now().toString(36)}`;
  await apiOk('POST', '/products', { token, body: { name: 'Queue Shop', slug, currency: 'EUR' } });
  const { key } = await apiOk('POST', '/auth/keys', { token, body: { name: 'queue agent' } });
  check(key?.startsWith('svc_live_'), 'POST /auth/keys answered no key');

  step('an empty queue says what lands there');
  await page.goto(`${baseUrl}/#/queue`);
  await page.getByText('Nothing waiting for you').waitFor();

  step('the agent proposes two spend changes');
  const google = await apiOk(
    'POST',
    `/products/${slug}/proposals`,
    {
      token: key,
      body: {
        network: 'google',
        from_cents: 8000,
        to_cents: 12000,
        rationale: 'Search CAC is a third of LTV and the budget runs out by 3pm.',
        rollback_if: { cac_ceiling_cents: 4000, window_days: 7 },
      },
    },
    202,
  );
  const meta = await apiOk(
    'POST',
    `/products/${slug}/proposals`,
    {
      token: key,
      body: {
        network: 'meta',
        from_cents: 5000,
        to_cents: 3000,
        rationale: 'Meta clicks rarely convert; cut while the creative is reworked.',
      },
    },
    202,
  );
  const queued = await apiOk('GET', '/queue', { token });
  const googleCard = queued.find((card) => card.id === google.proposal_id);
  const metaCard = queued.find((card) => card.id === meta.proposal_id);
  check(googleCard && metaCard, 'GET /queue does not list both proposals');

  // Money as the browser formats it (its locale, the product's currency), to compare with the page.
  const euros = (cents) => money(page, cents, 'EUR');
  const cardOf = (card) => page.getByRole('article', { name: card.headline });

  step('both cards show in the queue with their headline and money');
  await page.reload();
  await page.getByRole('heading', { name: 'Queue', exact: true }).waitFor();
  await cardOf(googleCard).waitFor();
  await cardOf(metaCard).waitFor();
  checkEqual(await cardOf(googleCard).locator('[data-money="to"]').innerText(), await euros(12000), 'Google card: to budget');
  checkEqual(await cardOf(googleCard).locator('[data-money="from"]').innerText(), await euros(8000), 'Google card: from budget');
  checkEqual(await cardOf(metaCard).locator('[data-money="to"]').innerText(), await euros(3000), 'Meta card: to budget');
  check((await cardOf(googleCard).innerText()).includes('AI agent'), 'the Google card does not name the AI agent as proposer');
  check((await cardOf(googleCard).innerText()).includes(googleCard.metric_line), 'the Google card does not show its metric line');
  await browser.screenshot(page, 'queue-queue');

  step('approve the Google proposal');
  await cardOf(googleCard).getByRole('button', { name: 'Approve' }).click();
  await cardOf(googleCard).waitFor({ state: 'detached' });
  const afterApprove = await apiOk('GET', '/queue', { token });
  check(!afterApprove.some((card) => card.id === googleCard.id), 'the approved card is still in GET /queue');
  const history = await apiOk('GET', `/history?product=${slug}`, { token });
  const approval = history.find((event) => event.action === 'card.approve' && event.subject_ref === googleCard.id);
  check(approval, 'GET /history has no card.approve event for the approved card');
  checkEqual(approval.actor, email, 'the approval is recorded by');
  checkEqual(approval.via, 'dashboard', 'the approval came through');

  step('snooze the Meta proposal, then restore it');
  await cardOf(metaCard).getByLabel('Snooze hours').fill('3');
  await cardOf(metaCard).getByRole('button', { name: 'Snooze' }).click();
  await cardOf(metaCard).waitFor({ state: 'detached' });
  const afterSnooze = await apiOk('GET', '/queue', { token });
  check(!afterSnooze.some((card) => card.id === metaCard.id), 'the snoozed card is still in GET /queue');
  const snoozed = page.locator(`li[data-card="${metaCard.id}"]`);
  await snoozed.waitFor();
  check((await snoozed.innerText()).includes('Snoozed until'), 'the snoozed card does not say until when');
  await snoozed.getByRole('button', { name: /Restore/ }).click();
  await cardOf(metaCard).waitFor();
  const afterRestore = await apiOk('GET', '/queue', { token });
  check(afterRestore.some((card) => card.id === metaCard.id), 'the restored card is not back in GET /queue');

  step('lower the Meta cap below the proposal in the policy editor');
  await page.goto(`${baseUrl}/#/p/${slug}/spend`);
  await page.getByRole('heading', { name: 'Spend policy' }).waitFor();
  await page.getByLabel('Meta Ads daily cap (EUR)').fill('20');
  await page.getByRole('button', { name: 'Save policy' }).click();
  await page.getByText('Policy saved.').waitFor();
  const policy = await apiOk('GET', `/products/${slug}/policy`, { token });
  checkEqual(policy.daily_caps, { google: null, meta: 2000 }, 'daily caps after the edit');
  const spend = await apiOk('GET', `/products/${slug}/spend?days=30`, { token });
  const googleCaps = spend.caps.networks.find((row) => row.network === 'google');
  checkEqual(googleCaps.approved_budget_cents, 12000, 'approved Google budget in the spend report');
  await page.locator('tr[data-network="meta"] [data-cell="cap"]').filter({ hasText: await euros(2000) }).waitFor();
  check(
    (await page.locator('tr[data-network="google"]').innerText()).includes(await euros(12000)),
    'the caps block does not show the approved Google budget',
  );

  await browser.screenshot(page, 'queue-spend');

  step('a bad cap is refused in place');
  await page.getByLabel('Google Ads daily cap (EUR)').fill('lots');
  await page.getByRole('button', { name: 'Save policy' }).click();
  await page.getByText('is not an amount').waitFor();
  checkEqual((await apiOk('GET', `/products/${slug}/policy`, { token })).daily_caps.google, null, 'Google cap after a refused edit');
  await page.getByLabel('Google Ads daily cap (EUR)').fill('');

  step('approving the Meta proposal over the new cap is refused on the card');
  await page.goto(`${baseUrl}/#/queue`);
  await cardOf(metaCard).getByRole('button', { name: 'Approve' }).click();
  const refusal = cardOf(metaCard).getByRole('alert');
  await refusal.waitFor();
  const refusalText = await refusal.innerText();
  check(refusalText.includes('Daily cap exceeded'), `the refusal does not name the policy in words: ${refusalText}`);
  check(refusalText.includes('daily_cap_exceeded'), `the refusal does not show the policy code: ${refusalText}`);
  check(refusalText.includes('daily cap:'), `the refusal does not show the server's reason: ${refusalText}`);
  const afterRefusal = await apiOk('GET', '/queue', { token });
  check(afterRefusal.some((card) => card.id === metaCard.id), 'the refused card left GET /queue');

  step('the History page shows these actions');
  await page.goto(`${baseUrl}/#/history?product=${slug}`);
  await page.getByRole('heading', { name: 'History', exact: true }).waitFor();
  const table = page.locator('table');
  await table.getByText('card.approve_refused').waitFor();
  const historyText = await table.innerText();
  for (const action of ['card.approve', 'card.snooze', 'card.restore', 'card.approve_refused', 'policy.update', 'proposal.create']) {
    check(historyText.includes(action), `the History page does not list ${action}`);
  }
  check(historyText.includes(email), 'the History page does not name the person who approved');
  check(historyText.includes(googleCard.headline), 'the History page does not show the card headline');
  const apiHistory = await apiOk('GET', `/history?product=${slug}&days=30&limit=100`, { token });
  checkEqual(await table.locator('tbody tr').count(), apiHistory.length, 'History rows against GET /history');
  await browser.screenshot(page, 'queue-history');

  step('the product History tab lists the same events');
  await page.goto(`${baseUrl}/#/p/${slug}/history`);
  await page.locator('table').getByText('card.approve_refused').waitFor();
  checkEqual(await page.locator('table tbody tr').count(), apiHistory.length, 'product History rows');

  step('record outreach on the distribution page');
  await page.goto(`${baseUrl}/#/p/${slug}/distribution`);
  await page.getByLabel('Channel').fill('reddit');
  await page.getByLabel('Kind').fill('post');
  await page.getByLabel('Post URL').fill('https://www.reddit.com/r/SideProject/comments/abc');
  await page.getByLabel('utm_campaign').fill('reddit-launch');
  await page.getByLabel('Note').fill('Launch post');
  await page.getByRole('button', { name: 'Record entry' }).click();
  await page.getByText('Recorded.').waitFor();
  await page.locator('table').getByText('reddit-launch').waitFor();
  const distribution = await apiOk('GET', `/products/${slug}/distribution`, { token });
  checkEqual(
    distribution.entries.map((entry) => [entry.channel, entry.kind, entry.utm_campaign, entry.note, entry.created_by]),
    [['reddit', 'post', 'reddit-launch', 'Launch post', email]],
    'distribution entries',
  );

  step('set the portfolio ceiling');
  await page.goto(`${baseUrl}/#/settings/policy`);
  await page.getByLabel('Daily ceiling').fill('500');
  await page.getByLabel('Currency').fill('EUR');
  await page.getByRole('button', { name: 'Save ceiling' }).click();
  await page.getByText('Ceiling saved.').waitFor();
  const portfolio = await apiOk('GET', '/policy', { token });
  checkEqual([portfolio.portfolio_ceiling_cents, portfolio.currency], [50000, 'EUR'], 'portfolio ceiling');
  checkEqual(portfolio.committed_daily_cents, 12000, 'committed daily budgets');
  // The page reloads the policy after saving; wait for the figure in the new currency.
  const committed = await euros(12000);
  await page.locator('[data-value="committed"]').filter({ hasText: committed }).waitFor({ timeout: 5_000 }).catch(() => {});
  checkEqual(await page.locator('[data-value="committed"]').innerText(), committed, 'committed budgets shown');

  step('the queue on a phone');
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto(`${baseUrl}/#/queue`);
  await cardOf(metaCard).waitFor();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  check(overflow <= 1, `the queue is ${overflow}px wider than a 375px phone`);
  await browser.screenshot(page, 'queue-queue-phone');

  // A refused call leaves nothing behind: the API agrees with what the pages said.
  const reply = await api('POST', `/queue/${metaCard.id}/approve`, { token: key, body: {} });
  checkEqual(reply.status, 403, 'an API key approving a card');
});
