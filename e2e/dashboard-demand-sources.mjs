// The five key-connected demand sources in a browser, against their loopback fakes: on the
// product's Connections page each is connected through its own form (Bing Webmaster Tools,
// Semrush, Ahrefs, SE Ranking, an X account), one shared form under five configurations. A
// deleted Ahrefs key is refused first, in the server's words under the form, the domain still
// typed; SE Ranking's key sees two projects, so its form shows them as a choice (name and site)
// and connects the one chosen; each card then says active, with what it reads in words.
// Replacing SE Ranking's key offers the project as text (no picker), and X's says the token is
// replaced. The Demand page lists the demand sources among them as connected.
//
// Run by crates/testkit/tests/integration/dashboard_demand_sources.rs, which seeds the fakes,
// makes the person and the product, and checks the stored connections afterwards. Besides the
// harness's variables it needs:
//   PAYBACK_E2E_EMAIL              the person (password: the harness's PASSWORD)
//   PAYBACK_E2E_SLUG               their product, with nothing connected
//   PAYBACK_E2E_DEMAND_KINDS       JSON [kind]: those of the five the Demand page lists
//   PAYBACK_E2E_BING_KEY           a Bing key that sees PAYBACK_E2E_SITE
//   PAYBACK_E2E_SITE               the verified site
//   PAYBACK_E2E_SEMRUSH_KEY        a Semrush key
//   PAYBACK_E2E_AHREFS_KEY         an Ahrefs key, and PAYBACK_E2E_AHREFS_WRONG_KEY one it refuses
//   PAYBACK_E2E_DOMAIN             the domain Semrush and Ahrefs read
//   PAYBACK_E2E_SE_KEY             an SE Ranking key seeing two projects
//   PAYBACK_E2E_SE_PROJECT         the project to choose, as the picker shows it: "Name (site)"
//   PAYBACK_E2E_SE_PROJECT_ID      its id
//   PAYBACK_E2E_X_TOKEN            an X bearer token, and PAYBACK_E2E_X_HANDLE the account's handle

import { api, baseUrl, check, checkEqual, envSetting, logIn, runBrowserTest, sessionToken, step } from './lib/harness.mjs';

const email = envSetting('PAYBACK_E2E_EMAIL');
const slug = envSetting('PAYBACK_E2E_SLUG');
const DEMAND_KINDS = JSON.parse(envSetting('PAYBACK_E2E_DEMAND_KINDS'));
const BING_KEY = envSetting('PAYBACK_E2E_BING_KEY');
const SITE = envSetting('PAYBACK_E2E_SITE');
const SEMRUSH_KEY = envSetting('PAYBACK_E2E_SEMRUSH_KEY');
const AHREFS_KEY = envSetting('PAYBACK_E2E_AHREFS_KEY');
const AHREFS_WRONG_KEY = envSetting('PAYBACK_E2E_AHREFS_WRONG_KEY');
const DOMAIN = envSetting('PAYBACK_E2E_DOMAIN');
const SE_KEY = envSetting('PAYBACK_E2E_SE_KEY');
const SE_PROJECT = envSetting('PAYBACK_E2E_SE_PROJECT');
const SE_PROJECT_ID = envSetting('PAYBACK_E2E_SE_PROJECT_ID');
const X_TOKEN = envSetting('PAYBACK_E2E_X_TOKEN');
const X_HANDLE = envSetting('PAYBACK_E2E_X_HANDLE');

await runBrowserTest('dashboard-demand-sources', async (browser) => {
  const page = await browser.page();

  step('log in');
  await logIn(page, email);
  const token = await sessionToken(page);
  check(token, 'the app stored a session');

  step('the Connections page offers the five key-connected sources');
  await page.goto(`${baseUrl}/#/p/${slug}/connections`);
  const offer = (title) => page.getByRole('article', { name: title, exact: true });
  const titles = [
    'Connect Bing Webmaster Tools',
    'Connect Semrush',
    'Connect Ahrefs',
    'Connect SE Ranking',
    'Connect an X account',
  ];
  for (const title of titles) await offer(title).waitFor();
  await browser.screenshot(page, 'demand-sources-offers');

  /** Waits for `kind`'s card and answers its status badge's words; the offer is gone by then. */
  const cardStatus = async (kind, offerTitle) => {
    const card = page.locator(`article.connection-card[data-connection="${kind}"]`);
    await card.waitFor();
    await offer(offerTitle).waitFor({ state: 'detached' });
    return (await card.locator('.connection-status').innerText()).trim();
  };
  const connectButton = (form, name) => form.getByRole('button', { name, exact: true });

  step('Bing Webmaster Tools: key and site');
  const bing = offer('Connect Bing Webmaster Tools');
  await bing.getByLabel('Bing Webmaster API key', { exact: true }).fill(BING_KEY);
  await bing.getByLabel('Site URL', { exact: true }).fill(SITE);
  await connectButton(bing, 'Connect Bing Webmaster Tools').click();
  checkEqual(await cardStatus('search_b', 'Connect Bing Webmaster Tools'), 'active', 'the Bing card');

  step('Ahrefs: a deleted key is refused under the form in the server’s words, then the right key connects');
  const ahrefs = offer('Connect Ahrefs');
  await ahrefs.getByLabel('Ahrefs API key', { exact: true }).fill(AHREFS_WRONG_KEY);
  await ahrefs.getByLabel('Domain', { exact: true }).fill(DOMAIN);
  await connectButton(ahrefs, 'Connect Ahrefs').click();
  const refusal = ahrefs.getByRole('alert');
  await refusal.waitFor();
  const refused = await api('POST', `/products/${slug}/connections/seo-b`, {
    token,
    body: { api_key: AHREFS_WRONG_KEY, domain: DOMAIN },
  });
  check(refused.status >= 400 && refused.status < 500, `the wrong key answered ${refused.status}`);
  checkEqual(await refusal.innerText(), refused.body.error, 'the refusal shown under the Ahrefs form');
  check(!(await refusal.innerText()).includes(AHREFS_WRONG_KEY), 'the refusal quotes the key');
  checkEqual(await ahrefs.getByLabel('Domain', { exact: true }).inputValue(), DOMAIN, 'the domain still typed');
  await browser.screenshot(page, 'demand-sources-ahrefs-refused');
  await ahrefs.getByLabel('Ahrefs API key', { exact: true }).fill(AHREFS_KEY);
  await connectButton(ahrefs, 'Connect Ahrefs').click();
  checkEqual(await cardStatus('seo_b', 'Connect Ahrefs'), 'active', 'the Ahrefs card');

  step('Semrush: key, domain and the default database');
  const semrush = offer('Connect Semrush');
  await semrush.getByLabel('Semrush API key', { exact: true }).fill(SEMRUSH_KEY);
  await semrush.getByLabel('Domain', { exact: true }).fill(DOMAIN);
  await connectButton(semrush, 'Connect Semrush').click();
  checkEqual(await cardStatus('seo_a', 'Connect Semrush'), 'active', 'the Semrush card');

  step('SE Ranking: the key sees two projects, the form lists them and connects the one chosen');
  const seranking = offer('Connect SE Ranking');
  check(
    (await seranking.getByLabel('SE Ranking project id', { exact: true }).count()) === 0,
    'the project id is asked for before it matters',
  );
  await seranking.getByLabel('SE Ranking API key', { exact: true }).fill(SE_KEY);
  await connectButton(seranking, 'Connect SE Ranking').click();
  const picker = seranking.getByRole('combobox', { name: 'SE Ranking project', exact: true });
  await picker.waitFor();
  const choices = (await picker.locator('option').allInnerTexts()).map((text) => text.trim());
  checkEqual(choices.length, 2, `the projects listed: ${choices.join(' | ')}`);
  check(choices.includes(SE_PROJECT), `"${SE_PROJECT}" is not among ${choices.join(' | ')}`);
  check(
    (await seranking.getByLabel('SE Ranking project id', { exact: true }).count()) === 0,
    'the free-text id is shown beside the choice',
  );
  check(await seranking.getByRole('alert').isVisible(), 'the server’s sentence is not shown with the choice');
  checkEqual(
    await seranking.getByLabel('SE Ranking API key', { exact: true }).inputValue(),
    SE_KEY,
    'the key still typed',
  );
  await browser.screenshot(page, 'demand-sources-se-ranking-picker');
  await picker.selectOption({ label: SE_PROJECT });
  await connectButton(seranking, 'Connect SE Ranking').click();
  checkEqual(await cardStatus('geo_a', 'Connect SE Ranking'), 'active', 'the SE Ranking card');

  step('X: bearer token and handle');
  const x = offer('Connect an X account');
  await x.getByLabel('X bearer token', { exact: true }).fill(X_TOKEN);
  await x.getByLabel('X handle', { exact: true }).fill(`@${X_HANDLE}`);
  await connectButton(x, 'Connect X account').click();
  checkEqual(await cardStatus('social_b', 'Connect an X account'), 'active', 'the X card');

  step('each card says what it reads');
  const cardText = (kind) => page.locator(`article.connection-card[data-connection="${kind}"]`).innerText();
  check((await cardText('search_b')).includes(`Bing site ${SITE}`), 'the Bing card does not name the site');
  check((await cardText('seo_b')).includes(`Ahrefs domain ${DOMAIN}`), 'the Ahrefs card does not name the domain');
  check(
    (await cardText('seo_a')).includes(`Semrush domain ${DOMAIN} in the us database`),
    'the Semrush card does not name the domain and database',
  );
  check(
    (await cardText('geo_a')).includes(`SE Ranking project ${SE_PROJECT_ID}`),
    'the SE Ranking card does not name the project',
  );
  check((await cardText('social_b')).includes(`X account @${X_HANDLE}`), 'the X card does not name the handle');
  const shown = await page.locator('main').innerText();
  for (const secret of [BING_KEY, SEMRUSH_KEY, AHREFS_KEY, SE_KEY, X_TOKEN]) {
    check(!shown.includes(secret), 'a key is shown on the page');
  }
  await browser.screenshot(page, 'demand-sources-connected');

  step('replacing a key: SE Ranking keeps the project as text, X says the token is replaced');
  const seCard = page.locator('article.connection-card[data-connection="geo_a"]');
  await seCard.locator('details.replace-key summary').click();
  const projectId = seCard.getByLabel('SE Ranking project id', { exact: true });
  checkEqual(await projectId.inputValue(), SE_PROJECT_ID, 'the project id offered when replacing');
  checkEqual(await seCard.getByRole('combobox').count(), 0, 'a picker when replacing');
  await seCard.getByLabel('SE Ranking API key', { exact: true }).fill(SE_KEY);
  await seCard.getByRole('button', { name: 'Replace key', exact: true }).click();
  await seCard.getByText('Key replaced. The next sync uses the new key.').waitFor();
  const xCard = page.locator('article.connection-card[data-connection="social_b"]');
  await xCard.locator('details.replace-key summary').click();
  checkEqual(await xCard.getByLabel('X handle', { exact: true }).inputValue(), X_HANDLE, 'the handle offered');
  await xCard.getByLabel('X bearer token', { exact: true }).fill(X_TOKEN);
  await xCard.getByRole('button', { name: 'Replace token', exact: true }).click();
  await xCard.getByText('Token replaced. The next sync uses the new token.').waitFor();
  await browser.screenshot(page, 'demand-sources-replaced');

  step('the Demand page lists the demand sources as connected');
  await page.goto(`${baseUrl}/#/p/${slug}/demand`);
  const sources = page.locator('.demand-report ul.demand-sources');
  await sources.waitFor();
  for (const kind of DEMAND_KINDS) {
    const item = sources.locator(`li[data-source="${kind}"]`);
    checkEqual(await item.getAttribute('data-connected'), 'yes', `${kind} in the Demand page's sources`);
    check((await item.innerText()).includes('Connected'), `${kind} does not say Connected`);
  }
  await browser.screenshot(page, 'demand-sources-demand-page');
});
