// The Demand and Social pages in a browser: reached from the product's tabs, they show the
// figures the Rust side computed from what it seeded (the demand funnel with each step's
// conversion, the trend chart with its AI-visibility line, the search queries, the keyword
// ranks, keyword gaps, AI visibility, authority, the sources with their Connect links;
// followers and their change, each network's figures, the posts most engaged first), for the
// 30-day window and
// again after switching to 7 days; a product with nothing connected shows what to connect.
//
// Run by crates/testkit/tests/integration/dashboard_demand.rs, which seeds the store, makes the
// person and the products, and computes every expected figure. Besides the harness's variables
// it needs:
//   PAYBACK_E2E_EMAIL           the person (password: the harness's PASSWORD)
//   PAYBACK_E2E_SLUG            the product with sources
//   PAYBACK_E2E_EMPTY_SLUG      a product without any
//   PAYBACK_E2E_CONNECTED_KIND  the one demand source connected to the first
//   PAYBACK_E2E_DEMAND_SOURCES  JSON [{kind, label}]: the demand sources in the page's order
//   PAYBACK_E2E_DEMAND          JSON [7 days, 30 days]: {window, funnel, queries, ranks, gaps, ai, authority}
//   PAYBACK_E2E_SOCIAL          JSON [7 days, 30 days]: {window, followers, followers_change, networks, posts}

import { baseUrl, check, checkEqual, envSetting, logIn, runBrowserTest, step } from './lib/harness.mjs';

const email = envSetting('PAYBACK_E2E_EMAIL');
const slug = envSetting('PAYBACK_E2E_SLUG');
const emptySlug = envSetting('PAYBACK_E2E_EMPTY_SLUG');
const connectedKind = envSetting('PAYBACK_E2E_CONNECTED_KIND');
const SOURCES = JSON.parse(envSetting('PAYBACK_E2E_DEMAND_SOURCES'));
const [DEMAND_7, DEMAND_30] = JSON.parse(envSetting('PAYBACK_E2E_DEMAND'));
const [SOCIAL_7, SOCIAL_30] = JSON.parse(envSetting('PAYBACK_E2E_SOCIAL'));

await runBrowserTest('dashboard-reports-demand', async (browser) => {
  const page = await browser.page();

  /** A count as the app shows it, formatted inside the page so both use the browser's locale. */
  const fmt = (value) => page.evaluate((n) => new Intl.NumberFormat().format(n), value);
  const signed = async (change) => (change === 0 ? '±0' : change > 0 ? `+${await fmt(change)}` : `-${await fmt(-change)}`);
  const text = async (locator) => (await locator.innerText()).trim();
  /** The cells' text of each body row of the table in `part`. */
  const tableRows = (part) =>
    page
      .locator(`[data-part="${part}"] tbody tr`)
      .evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('td')].map((td) => td.innerText.trim())));
  const pickWindow = async (days) => {
    await page.locator('select[name="days"]').selectOption(String(days));
  };
  const tabs = page.getByRole('navigation', { name: 'Product pages' });

  async function checkDemand(expected) {
    const report = page.locator(`.demand-report[data-window="${expected.window}"]`);
    await report.waitFor();

    for (const step of expected.funnel) {
      const item = report.locator(`[data-step="${step.step}"]`);
      checkEqual(Number(await item.getAttribute('data-value')), step.value, `the funnel's ${step.step}`);
      checkEqual(await text(item.locator('strong')), await fmt(step.value), `the funnel's ${step.step} shown`);
      if (step.conversion !== null) {
        checkEqual(
          await text(item.locator('[data-field="conversion"]')),
          `${step.conversion} of the step before`,
          `the conversion to ${step.step}`,
        );
      }
    }

    const chart = report.locator('[data-part="demand-trend"] figure');
    checkEqual(
      await chart.getAttribute('data-series'),
      'Search clicks,Search impressions,AI visibility',
      'the trend chart lines (AI visibility with them, since days have a score)',
    );
    await chart.locator('canvas').first().waitFor();

    const queries = [];
    for (const row of expected.queries) {
      queries.push([row.query, row.source, await fmt(row.clicks), await fmt(row.impressions), row.position]);
    }
    checkEqual(await tableRows('demand-queries'), queries, `the queries over ${expected.window} days`);

    const ranks = [];
    for (const row of expected.ranks) {
      ranks.push([row.keyword, row.position, await fmt(row.volume), row.url ?? '—', row.source]);
    }
    const shownRanks = (await tableRows('demand-ranks')).map((cells) => cells.slice(0, 5));
    checkEqual(shownRanks, ranks, 'the keyword ranks');
    for (const row of expected.ranks.filter((rank) => rank.url)) {
      const link = report.locator('[data-part="demand-ranks"]').getByRole('link', { name: row.url, exact: true });
      checkEqual(await link.getAttribute('href'), row.url, `the link of ${row.keyword}`);
    }

    const shownGaps = (await tableRows('demand-gaps')).map((cells) => cells.slice(0, 6));
    checkEqual(shownGaps, expected.gaps, 'the keyword gaps');

    const figure = (name) => text(report.locator(`[data-figure="${name}"] dd`));
    checkEqual(await figure('ai_score'), expected.ai.score, 'the AI visibility score');
    checkEqual(await figure('site_health'), expected.ai.site_health, 'the site health');
    const engines = await report
      .locator('[data-engine]')
      .evaluateAll((items) =>
        items.map((item) => [item.dataset.engine, item.querySelector('[data-field="visibility"]').textContent.trim()]),
      );
    checkEqual(
      engines,
      expected.ai.engines.map((engine) => [engine.engine, engine.visibility]),
      'the engines',
    );

    const authority = expected.authority;
    checkEqual(await figure('domain_rating'), authority.domain_rating, 'the domain rating');
    for (const name of ['backlinks', 'referring_domains', 'rank', 'organic_keywords', 'organic_traffic']) {
      checkEqual(await figure(name), await fmt(authority[name]), `the ${name}`);
    }

    const sources = report.locator('[data-source]');
    checkEqual(
      await sources.evaluateAll((items) => items.map((item) => item.dataset.source)),
      SOURCES.map((source) => source.kind),
      'the sources listed',
    );
    for (const source of SOURCES) {
      const item = report.locator(`[data-source="${source.kind}"]`);
      const shown = await text(item);
      check(shown.startsWith(source.label), `the source ${source.kind} is not named "${source.label}": ${shown}`);
      if (source.kind === connectedKind) {
        checkEqual(await item.getAttribute('data-connected'), 'yes', `${source.kind} connected`);
        check(/Connected/.test(shown) && /feeds keyword ranks, authority/.test(shown), `the connected source: ${shown}`);
        check(!/not yet/.test(shown), `the connected source's last sync is missing: ${shown}`);
      } else {
        checkEqual(
          await item.getByRole('link', { name: 'Connect', exact: true }).getAttribute('href'),
          `#/p/${slug}/connections`,
          `the Connect link of ${source.kind}`,
        );
      }
    }
  }

  async function checkSocial(expected) {
    const report = page.locator(`.social-report[data-window="${expected.window}"]`);
    await report.waitFor();
    const figure = (name) => report.locator(`[data-figure="${name}"]`);
    checkEqual(Number(await figure('followers').getAttribute('data-value')), expected.followers, 'the followers');
    checkEqual(await text(figure('followers').locator('dd')), await fmt(expected.followers), 'the followers shown');
    checkEqual(
      await text(figure('followers_change').locator('dd')),
      await signed(expected.followers_change),
      `the followers' change over ${expected.window} days`,
    );

    const networks = [];
    for (const row of expected.networks) {
      networks.push([row.name, await fmt(row.followers), await fmt(row.impressions), await fmt(row.engagement), row.rate]);
    }
    checkEqual(await tableRows('social-networks'), networks, `the networks over ${expected.window} days`);

    const chart = report.locator('[data-part="social-trend"] figure');
    checkEqual(await chart.getAttribute('data-series'), 'Impressions,Engagement,Followers', 'the social trend lines');
    await chart.locator('canvas').first().waitFor();

    const posts = await report.locator('[data-post]').evaluateAll((items) =>
      items.map((item) => ({
        id: item.dataset.post,
        name: item.querySelector('strong').innerText.trim(),
        text: item.querySelector('p').innerText.trim(),
        engagement: Number(item.dataset.engagement),
        permalink: item.querySelector('a')?.getAttribute('href') ?? null,
      })),
    );
    const names = { facebook: 'Facebook', instagram: 'Instagram', x: 'X' };
    checkEqual(
      posts,
      expected.posts.map((post) => ({
        id: post.id,
        name: names[post.network],
        text: post.text,
        engagement: post.engagement,
        permalink: post.permalink,
      })),
      `the posts over ${expected.window} days, most engaged first`,
    );
  }

  step('log in');
  await logIn(page, email);

  step('the Demand tab shows the 30-day report');
  await page.goto(`${baseUrl}/#/p/${slug}`);
  await tabs.getByRole('link', { name: 'Demand' }).click();
  await page.waitForURL((url) => url.hash === `#/p/${slug}/demand`);
  await checkDemand(DEMAND_30);
  await browser.screenshot(page, 'demand-30');

  step('switching to 7 days shows the shorter window');
  await pickWindow(7);
  await page.waitForURL((url) => url.hash === `#/p/${slug}/demand?days=7`);
  await checkDemand(DEMAND_7);
  check(
    DEMAND_7.funnel[0].value !== DEMAND_30.funnel[0].value,
    'the seed should give the two windows different impressions',
  );
  await browser.screenshot(page, 'demand-7');

  step('the Social tab beside it, over 7 days, then 30');
  await tabs.getByRole('link', { name: 'Social' }).click();
  await page.waitForURL((url) => url.hash === `#/p/${slug}/social`);
  await checkSocial(SOCIAL_30);
  await pickWindow(7);
  await checkSocial(SOCIAL_7);
  await browser.screenshot(page, 'social-7');

  step('a product without sources says what to connect');
  await page.goto(`${baseUrl}/#/p/${emptySlug}/demand`);
  const empty = page.locator('.demand-report[data-window="30"]');
  await empty.waitFor();
  await empty.getByText('No demand sources connected').waitFor();
  for (const title of ['No search queries in this window', 'No keyword ranks yet', 'No AI-search visibility measured', 'No authority figures yet']) {
    await empty.getByText(title).waitFor();
  }
  for (const step of ['impressions', 'clicks', 'visits', 'leads', 'customers']) {
    checkEqual(await empty.locator(`[data-step="${step}"]`).getAttribute('data-value'), '0', `the empty funnel's ${step}`);
  }
  checkEqual(await empty.locator('[data-connected="yes"]').count(), 0, 'connected sources of the empty product');
  checkEqual(await empty.getByRole('link', { name: 'Connect', exact: true }).count(), SOURCES.length, 'Connect links');
  await browser.screenshot(page, 'demand-empty');
  await empty.getByRole('link', { name: 'Connect', exact: true }).first().click();
  await page.waitForURL((url) => url.hash === `#/p/${emptySlug}/connections`);

  await page.goto(`${baseUrl}/#/p/${emptySlug}/social`);
  const emptySocial = page.locator('.social-report[data-window="30"]');
  await emptySocial.waitFor();
  await emptySocial.getByText('No social accounts connected').waitFor();
  checkEqual(await emptySocial.locator('table').count(), 0, 'network tables without sources');
});
