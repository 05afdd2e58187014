// The assistant's panel in a browser, against the loopback chat-completions fake. The Rust
// driver (crates/testkit/tests/integration/dashboard_chat.rs) scripts the model and passes the
// scripted words; this script asks from a product's attribution page and checks what the panel
// shows as it happens: the tool chip of each call, the streamed reply (equal to the scripted
// text), the suggested action of a raised proposal linking to its card in the queue, and a
// gateway failure shown as an error. The driver then checks the card is pending and what the
// gateway was sent.
//
// With PAYBACK_E2E_CHAT_MODE=unconfigured (an app without a gateway key) it checks instead that
// the portfolio's panel says plainly that the assistant is not configured.
//
//   PAYBACK_URL=... PAYBACK_MAIL_DIR=... PAYBACK_E2E_EMAIL=... PAYBACK_E2E_SLUG=... \
//   PAYBACK_E2E_QUESTION_ONE=... PAYBACK_E2E_REPLY_ONE=... PAYBACK_E2E_QUESTION_TWO=... \
//   PAYBACK_E2E_REPLY_TWO=... PAYBACK_E2E_QUESTION_THREE=... PAYBACK_E2E_FAILURE=... \
//   node e2e/dashboard-chat.mjs

import {
  apiOk,
  baseUrl,
  check,
  checkEqual,
  envSetting,
  logIn,
  runBrowserTest,
  sessionToken,
  step,
} from './lib/harness.mjs';

/** Opens the panel from its toggle and answers the panel. */
async function openPanel(page) {
  await page.getByRole('button', { name: 'Ask the assistant' }).click();
  const panel = page.getByRole('complementary', { name: 'Assistant' });
  await panel.waitFor();
  return panel;
}

/** Types `question` and sends it with Enter; answers the new assistant turn. */
async function ask(panel, question) {
  const before = await panel.locator('[data-turn="assistant"]').count();
  const input = panel.getByLabel('Message the assistant');
  await input.fill(question);
  await input.press('Enter');
  const turn = panel.locator('[data-turn="assistant"]').nth(before);
  await turn.waitFor();
  checkEqual(await input.inputValue(), '', 'the input is emptied once sent');
  checkEqual(
    (await panel.locator('[data-turn="user"] .chat-text').last().textContent()).trim(),
    question,
    'the question shown in the conversation',
  );
  return turn;
}

/** Waits until the turn's stream ended in `state` (`done` or `failed`). */
async function ended(turn, state) {
  await turn.and(turn.page().locator(`[data-state="${state}"]`)).waitFor();
}

/**
 * Records, at every change of the panel's conversation, the newest assistant turn's chips and
 * reply text, so the order things appeared in can be checked after the stream ends.
 */
async function watchTurns(panel) {
  await panel.locator('.chat-log').evaluate((log) => {
    window.__chatSeen = [];
    const observer = new MutationObserver(() => {
      const turns = log.querySelectorAll('[data-turn="assistant"]');
      const turn = turns[turns.length - 1];
      if (!turn) return;
      window.__chatSeen.push({
        tools: [...turn.querySelectorAll('.chat-tool')].map((chip) => chip.dataset.tool),
        text: [...turn.querySelectorAll('.chat-text[data-reply]')].map((node) => node.textContent.trim()).join('\n\n'),
      });
    });
    observer.observe(log, { childList: true, subtree: true, characterData: true });
    window.__chatStop = () => observer.disconnect();
  });
}

/** What `watchTurns` saw, once the turn is over. */
async function seen(page) {
  return page.evaluate(() => {
    window.__chatStop();
    return window.__chatSeen;
  });
}

/** Fails unless the chip of `tool` showed before any reply text and the text only ever grew to `reply`. */
function checkAppearedInOrder(snapshots, tool, reply) {
  const firstText = snapshots.findIndex((snapshot) => snapshot.text !== '');
  check(firstText >= 0, `the reply was seen: ${JSON.stringify(snapshots)}`);
  const shown = JSON.stringify(snapshots);
  check(snapshots[firstText].tools.includes(tool), `the ${tool} chip showed before the reply: ${shown}`);
  for (const snapshot of snapshots) {
    const text = JSON.stringify(snapshot.text);
    check(reply.startsWith(snapshot.text), `each text seen is the start of the reply: ${text}`);
  }
}

/** The turn's reply text once its stream is done. */
async function finishedReply(turn) {
  await ended(turn, 'done');
  const texts = await turn.locator('.chat-text[data-reply]').allTextContents();
  return texts.map((text) => text.trim()).join('\n\n');
}

/** The order of a turn's chips and reply text, as `tool:<name>` and `text` entries. */
async function partOrder(turn) {
  return turn.locator('.chat-tool, .chat-text[data-reply]').evaluateAll((nodes) =>
    nodes.map((node) => (node.classList.contains('chat-tool') ? `tool:${node.dataset.tool}` : 'text')),
  );
}

async function conversation(browser) {
  const page = await browser.page();
  const slug = envSetting('PAYBACK_E2E_SLUG');

  step('log in; the portfolio offers the assistant');
  await logIn(page, envSetting('PAYBACK_E2E_EMAIL'));
  const token = await sessionToken(page);
  check(token, 'the app stored a session');
  await page.getByRole('button', { name: 'Ask the assistant' }).waitFor();

  step('on the attribution page, ask: the chip of the attribution read, then the streamed reply');
  await page.goto(`${baseUrl}/#/p/${slug}/attribution`);
  const panel = await openPanel(page);
  const focused = await panel.getByLabel('Message the assistant').evaluate((el) => el === document.activeElement);
  check(focused, 'the input has focus once the panel opens');
  await watchTurns(panel);
  const first = await ask(panel, envSetting('PAYBACK_E2E_QUESTION_ONE'));
  const readChip = first.locator('.chat-tool[data-tool="get_attribution"]');
  await readChip.waitFor();
  checkEqual((await readChip.textContent()).trim(), 'read attribution', 'the attribution chip');
  checkEqual(await readChip.getAttribute('data-ok'), 'true', 'the attribution read succeeded');
  checkEqual(await finishedReply(first), envSetting('PAYBACK_E2E_REPLY_ONE'), 'the first reply');
  checkEqual(await partOrder(first), ['tool:get_attribution', 'text'], 'the chip comes before the reply');
  checkAppearedInOrder(await seen(page), 'get_attribution', envSetting('PAYBACK_E2E_REPLY_ONE'));
  checkEqual(await first.locator('.chat-actions a').count(), 0, 'a read suggests nothing');
  await browser.screenshot(page, 'chat-read');

  step('the conversation stays open on another tab of the product');
  await page.getByRole('navigation', { name: 'Product pages' }).getByRole('link', { name: 'Spend' }).click();
  await page.waitForURL(new RegExp(`#/p/${slug}/spend$`));
  checkEqual(await panel.locator('[data-turn="assistant"]').count(), 1, 'the first answer is still shown');

  step('ask again: the proposal chip, the reply, and a link to the card in the queue');
  await watchTurns(panel);
  const second = await ask(panel, envSetting('PAYBACK_E2E_QUESTION_TWO'));
  const proposalChip = second.locator('.chat-tool[data-tool="propose_spend_change"]');
  await proposalChip.waitFor();
  checkEqual((await proposalChip.textContent()).trim(), 'raised a proposal', 'the proposal chip');
  checkEqual(await proposalChip.getAttribute('data-ok'), 'true', 'the proposal was raised');
  checkEqual(await finishedReply(second), envSetting('PAYBACK_E2E_REPLY_TWO'), 'the second reply');
  checkAppearedInOrder(await seen(page), 'propose_spend_change', envSetting('PAYBACK_E2E_REPLY_TWO'));
  const cards = await apiOk('GET', '/queue', { token });
  checkEqual(cards.length, 1, 'one card waits in the queue');
  const card = cards[0];
  check((await proposalChip.getAttribute('title')).includes(card.id), 'the chip\'s summary names the card');
  const link = second
    .getByRole('navigation', { name: 'Suggested actions' })
    .getByRole('button', { name: 'Review the proposal in the queue' });
  checkEqual(await link.getAttribute('href'), `#/queue?product=${slug}`, 'the suggested action\'s link');
  await browser.screenshot(page, 'chat-proposal');

  step('a gateway failure is shown as the service words it');
  const third = await ask(panel, envSetting('PAYBACK_E2E_QUESTION_THREE'));
  await ended(third, 'failed');
  checkEqual((await third.getByRole('alert').textContent()).trim(), envSetting('PAYBACK_E2E_FAILURE'), 'the failure');
  check(await panel.getByLabel('Message the assistant').isEnabled(), 'the person can ask again');

  step('the suggested action opens the queue on the pending card');
  await link.click();
  await page.waitForURL(new RegExp(`#/queue\\?product=${slug}$`));
  const shown = page.locator(`article.queue-card[data-card="${card.id}"]`);
  await shown.waitFor();
  checkEqual((await shown.locator('h3').textContent()).trim(), card.headline, 'the card\'s headline');
  check(await shown.getByRole('button', { name: 'Approve' }).isVisible(), 'the card waits for a decision');
  await browser.screenshot(page, 'chat-queue');
}

async function unconfigured(browser) {
  const page = await browser.page();
  step('log in; the portfolio\'s assistant says it is not configured');
  await logIn(page, envSetting('PAYBACK_E2E_EMAIL'));
  const panel = await openPanel(page);
  const turn = await ask(panel, envSetting('PAYBACK_E2E_QUESTION_ONE'));
  await ended(turn, 'failed');
  const alert = turn.getByRole('alert');
  check((await alert.getAttribute('data-unconfigured')) !== null, 'the 503 is told apart');
  const said = await alert.textContent();
  check(said.includes('The assistant is not configured.'), `the panel says the assistant is not configured: ${said}`);
  await browser.screenshot(page, 'chat-unconfigured');
}

const mode = envSetting('PAYBACK_E2E_CHAT_MODE', 'conversation');
runBrowserTest(`dashboard-chat-${mode}`, mode === 'unconfigured' ? unconfigured : conversation);
