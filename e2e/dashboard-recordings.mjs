// Session replay in a browser, against the loopback Clarity and PostHog fakes: the product's
// Connections page offers Microsoft Clarity and PostHog; PostHog's form refuses a host on a
// private address under the form, then connects with the project alone; Clarity connects with
// its token and project; the Recordings tab lists PostHog's sampled recordings newest first
// with their play links, narrows them by signal, and links to Clarity's dashboard.
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

import { api, baseUrl, check, checkEqual, envSetting, logIn, runBrowserTest, sessionToken, step } from './lib/harness.mjs';

const email = envSetting('PAYBACK_E2E_EMAIL');
const slug = envSetting('PAYBACK_E2E_SLUG');
const posthogKey = envSetting('PAYBACK_E2E_POSTHOG_KEY');
const posthogProject = envSetting('PAYBACK_E2E_POSTHOG_PROJECT');
const clarityToken = envSetting('PAYBACK_E2E_CLARITY_TOKEN');
const clarityProject = envSetting('PAYBACK_E2E_CLARITY_PROJECT');
const recordings = envSetting('PAYBACK_E2E_RECORDINGS').split(',');
const rageRecordings = envSetting('PAYBACK_E2E_RAGE_RECORDINGS').split(',');

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
  const refusal = await posthog.getByText(/host: `10\.0\.0\.8`/).first().innerText();
  check(refusal.includes('private'), `the host refusal: ${refusal}`);
  await posthog.getByLabel('Host (optional)').fill('');
  await posthog.getByRole('button', { name: 'Connect PostHog' }).click();
  await until('the PostHog connection', async () => {
    const listed = await api('GET', '/connections', { token });
    return listed.body.find((row) => row.kind === 'product_analytics_a');
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
});
