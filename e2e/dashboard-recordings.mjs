// Session replay in a browser, against the loopback Clarity and PostHog fakes: the product's
// Connections page offers Microsoft Clarity and PostHog; PostHog's form refuses a host on a
// private address under the form, then connects with the project alone; its card's event maps
// show a refusal inside the map it names, then save the maps typed; Clarity connects with its
// token and project; the Recordings tab lists PostHog's sampled recordings newest first with
// their play links, narrows them by signal, and links to Clarity's dashboard; the Pages list
// shows the tracked page's friction (rage / dead / errors), and its detail the same counts, the
// recordings that started on it newest first, and the link to all of them.
//
// Run by crates/testkit/tests/integration/dashboard_recordings.rs, which seeds the fakes and runs
// the sync job meanwhile. Besides the harness's variables it needs:
//   PAYBACK_E2E_EMAIL            the person (password: the harness's PASSWORD)
//   PAYBACK_E2E_SLUG             their product
//   PAYBACK_E2E_POSTHOG_KEY      a personal key the fake PostHog knows
//   PAYBACK_E2E_POSTHOG_PROJECT  its project id
//   PAYBACK_E2E_CLARITY_TOKEN    a token the fake Clarity knows
//   PAYBACK_E2E_CLARITY_PROJECT  its project id
//   PAYBACK_E2E_RECORDINGS       the recordings the fake serves (newest first, comma-separated ids)
//   PAYBACK_E2E_RAGE_RECORDINGS  those with a rage click (newest first, comma-separated ids)
//   PAYBACK_E2E_EVENT_MAPS       the PostHog event maps to type (`event:stage`, comma-separated)
//   PAYBACK_E2E_PAGE_PATH        the tracked page every recording started on
//   PAYBACK_E2E_FRICTION         its friction over the window, `rage/dead/errors`

import { api, baseUrl, check, checkEqual, envSetting, logIn, runBrowserTest, sessionToken, step } from './lib/harness.mjs';

const email = envSetting('PAYBACK_E2E_EMAIL');
const slug = envSetting('PAYBACK_E2E_SLUG');
const posthogKey = envSetting('PAYBACK_E2E_POSTHOG_KEY');
const posthogProject = envSetting('PAYBACK_E2E_POSTHOG_PROJECT');
const clarityToken = envSetting('PAYBACK_E2E_CLARITY_TOKEN');
const clarityProject = envSetting('PAYBACK_E2E_CLARITY_PROJECT');
const recordings = envSetting('PAYBACK_E2E_RECORDINGS').split(',');
const rageRecordings = envSetting('PAYBACK_E2E_RAGE_RECORDINGS').split(',');
const eventMaps = envSetting('PAYBACK_E2E_EVENT_MAPS')
  .split(',')
  .map((pair) => {
    const [event, stage] = pair.split(':');
    return { event, stage };
  });
const pagePath = envSetting('PAYBACK_E2E_PAGE_PATH');
const friction = envSetting('PAYBACK_E2E_FRICTION');

async function until(what, probe, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    check(Date.now() < deadline, `timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function playIds(page) {
  return page.locator('[data-recording]').evaluateAll((links) => links.map((link) => link.getAttribute('data-recording')));
}

await runBrowserTest('dashboard-recordings', async (browser) => {
  const page = await browser.page();

  step('log in');
  await logIn(page, email);
  const token = await sessionToken(page);

  step('PostHog refuses a private host, then connects');
  await page.goto(`${baseUrl}/#/p/${slug}/connections`);
  const posthog = page.getByRole('article', { name: 'Connect PostHog' });
  await posthog.getByLabel('PostHog personal API key').fill(posthogKey);
  await posthog.getByLabel('Project id').fill(posthogProject);
  await posthog.getByLabel('Host (optional)').fill('http://10.0.0.8:8000');
  await posthog.getByRole('button', { name: 'Connect PostHog' }).click();
  // It names the field and the host: `host: host `10.0.0.8` is ...` in the fetch guard's words.
  const refusal = await posthog.getByText(/host: .*`10\.0\.0\.8`/).first().innerText();
  check(refusal.includes('private'), `the host refusal: ${refusal}`);
  await posthog.getByLabel('Host (optional)').fill('');
  await posthog.getByRole('button', { name: 'Connect PostHog' }).click();
  await until('the PostHog connection', async () => {
    const listed = await api('GET', '/connections', { token });
    return listed.body.find((row) => row.kind === 'product_analytics_a');
  });

  step("PostHog's event maps: a refusal shows inside the map it names");
  await page.goto(`${baseUrl}/#/p/${slug}/connections`);
  const card = page.locator('article[data-connection="product_analytics_a"]');
  await card.getByRole('button', { name: 'Event maps' }).click();
  const editor = card.locator('[data-event-maps]');
  await editor.locator('[data-maps="empty"]').waitFor();
  await editor.getByRole('button', { name: 'Add an event' }).click();
  await editor.getByRole('button', { name: 'Save event maps' }).click();
  const named = editor.getByRole('group', { name: 'Map 1' }).getByRole('alert');
  check((await named.innerText()).startsWith('event_maps[0].event:'), `the refusal in map 1: ${await named.innerText()}`);
  checkEqual(await editor.getByLabel('PostHog event 1').getAttribute('aria-invalid'), 'true', 'the event marked invalid');

  step('the maps typed are saved');
  for (const [index, map] of eventMaps.entries()) {
    if (index > 0) await editor.getByRole('button', { name: 'Add an event' }).click();
    await editor.getByLabel(`PostHog event ${index + 1}`).fill(map.event);
    await editor.getByLabel(`Stage ${index + 1}`).selectOption(map.stage);
  }
  await editor.getByRole('button', { name: 'Save event maps' }).click();
  await editor.locator('[data-maps="saved"]').waitFor();
  await browser.screenshot(page, 'posthog-event-maps');
  checkEqual(await editor.getByRole('alert').count(), 0, 'refusals left after saving');
  await until('the maps in the inventory', async () => {
    const listed = await api('GET', '/connections', { token });
    const row = listed.body.find((c) => c.kind === 'product_analytics_a');
    return JSON.stringify(row?.event_maps) === JSON.stringify(eventMaps);
  });

  step('Clarity connects with its token and project');
  await page.goto(`${baseUrl}/#/p/${slug}/connections`);
  const clarity = page.getByRole('article', { name: 'Connect Microsoft Clarity' });
  await clarity.getByLabel('Clarity API token').fill(clarityToken);
  await clarity.getByLabel('Project id').fill(clarityProject);
  await clarity.getByRole('button', { name: 'Connect Clarity' }).click();
  await until('the Clarity connection', async () => {
    const listed = await api('GET', '/connections', { token });
    return listed.body.find((row) => row.kind === 'replay_a');
  });

  step('the first PostHog run lands');
  await until('the recordings', async () => {
    const answer = await api('GET', `/products/${slug}/recordings`, { token });
    return answer.body.recordings.length === recordings.length;
  });

  step('the Recordings tab lists them newest first, with play links');
  await page.goto(`${baseUrl}/#/p/${slug}/recordings`);
  await page.getByRole('link', { name: 'Recordings', exact: true }).waitFor();
  await page.locator('[data-recording]').first().waitFor();
  checkEqual((await playIds(page)).join(','), recordings.join(','), 'the recordings listed');
  const link = await page.locator('[data-recordings-url]').getAttribute('href');
  check(link.startsWith(`https://clarity.microsoft.com/projects/view/${clarityProject}/impressions`), `the link: ${link}`);

  step('a signal narrows the list');
  await page.getByRole('navigation', { name: 'Signal' }).getByRole('link', { name: 'Rage clicks' }).click();
  await until('the rage-click filter', async () => (await playIds(page)).join(',') === rageRecordings.join(','));

  step("both sources' friction on the tracked page lands");
  const listedPage = async () => {
    const answer = await api('GET', `/products/${slug}/landing-pages`, { token });
    return answer.body.pages.find((row) => row.path === pagePath);
  };
  const counted = (row) => (row?.friction ? [row.friction.rage_clicks, row.friction.dead_clicks, row.friction.js_errors].join('/') : null);
  await until(`friction ${friction} on ${pagePath} (the API answers ${counted(await listedPage())})`, async () => counted(await listedPage()) === friction, 60_000);

  step('the Pages list shows it as rage / dead / errors');
  await page.goto(`${baseUrl}/#/p/${slug}/pages`);
  const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: pagePath, exact: true }) });
  const cell = row.locator('[data-friction]');
  checkEqual(await cell.getAttribute('data-friction'), friction, 'the friction cell');
  checkEqual(await cell.innerText(), friction.split('/').join(' / '), 'the friction cell in words');
  await browser.screenshot(page, 'pages-friction');

  step("the page's detail: its friction, its recordings newest first, and the link to all of them");
  const detailRow = await listedPage();
  const detail = (await api('GET', `/products/${slug}/landing-pages/${detailRow.id}`, { token })).body;
  await row.getByRole('link', { name: pagePath, exact: true }).click();
  await page.locator(`[data-page="${pagePath}"]`).waitFor();
  const figures = ['rage_clicks', 'dead_clicks', 'js_errors'];
  const shown = [];
  for (const figure of figures) shown.push(await page.locator(`[data-figure="${figure}"]`).innerText());
  checkEqual(shown.join('/'), friction, 'the friction figures');
  const recordingsSection = page.getByRole('region', { name: 'Recordings', exact: true });
  await recordingsSection.locator('[data-recording]').first().waitFor();
  checkEqual((await playIds(recordingsSection)).join(','), recordings.join(','), "the page's recordings");
  const play = recordingsSection.locator(`[data-recording="${recordings[0]}"]`);
  checkEqual(await play.getAttribute('href'), detail.recordings[0].url, 'the newest play link');
  checkEqual(await play.getAttribute('target'), '_blank', 'the play link opens a new tab');
  check((await play.getAttribute('rel')).split(' ').includes('noopener'), 'the play link is noopener');
  check(detail.recordings_url, 'the detail has no recordings_url');
  const watchAll = recordingsSection.getByRole('link', { name: 'Watch all recordings' });
  checkEqual(await watchAll.getAttribute('href'), detail.recordings_url, 'the "Watch all recordings" link');
  checkEqual(await watchAll.getAttribute('target'), '_blank', '"Watch all recordings" opens a new tab');
  await browser.screenshot(page, 'page-recordings');
}, { timeoutMs: 240_000 });
