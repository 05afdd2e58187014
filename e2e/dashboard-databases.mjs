// A customer database in a browser: a product's Connections page connects a MariaDB database
// through the "Connect a database" form (a malformed host is refused in place, naming
// credentials.host) and lists it staged, with no maps; Sync now on a staged connection shows the
// server's 409 in place; "Ask the model" shows the server's 503 (no gateway) and the presets stay
// usable; the preset suggestions fit the users and orders tables and are added into the editor;
// one field is adjusted (a filter keeping paid orders); a map with an empty timestamp is refused
// in place, inside that map, naming event_maps[0].timestamp; saving with Activate makes the
// connection active; Test passes; Sync now runs until the page shows the last sync, and the
// product's 30-day revenue is what the test seeded (paid orders in the product's currency only).
// The card's map count and GET /connections agree; credentials never come back from the API.
//
// Needs a server with PAYBACK_SECRET_KEY set and a MariaDB database holding `users` and `orders`
// (crates/testkit/tests/integration/dashboard_databases.rs prepares both and passes):
//   PAYBACK_E2E_DB_HOST, PAYBACK_E2E_DB_PORT, PAYBACK_E2E_DB_USER, PAYBACK_E2E_DB_PASSWORD (may
//   be empty), PAYBACK_E2E_DB_DATABASE, PAYBACK_E2E_REVENUE_CENTS (the expected revenue)
//
//   PAYBACK_URL=... PAYBACK_MAIL_DIR=... PAYBACK_ARTIFACTS=... PAYBACK_E2E_DB_...=... node e2e/dashboard-databases.mjs

import {
  apiOk,
  baseUrl,
  check,
  checkEqual,
  envSetting,
  runBrowserTest,
  sessionToken,
  signUpAndLogIn,
  step,
} from './lib/harness.mjs';

const db = {
  host: envSetting('PAYBACK_E2E_DB_HOST'),
  port: envSetting('PAYBACK_E2E_DB_PORT'),
  user: envSetting('PAYBACK_E2E_DB_USER'),
  password: envSetting('PAYBACK_E2E_DB_PASSWORD', ''),
  database: envSetting('PAYBACK_E2E_DB_DATABASE'),
};
const EXPECTED_REVENUE_CENTS = Number(envSetting('PAYBACK_E2E_REVENUE_CENTS'));

/** The timestamp as the app's `when()` formats it, in this browser's locale and zone. */
function shownTime(page, timestamp) {
  return page.evaluate(
    (ts) => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(ts)),
    timestamp,
  );
}

runBrowserTest(
  'dashboard-databases',
  async (browser) => {
    const page = await browser.page();

    step('sign up, log in and create a product through the API');
    await signUpAndLogIn(page, 'databases');
    const token = await sessionToken(page);
    check(token, 'the app stored a session');
    const run = Date.now().toString(36);
    const slug = `db-${run}`;
    await apiOk('POST', '/products', { token, body: { name: `Database Shop ${run}`, slug, currency: 'USD' } });
    const ofProduct = async () =>
      (await apiOk('GET', '/connections', { token })).filter((c) => c.product_slug === slug);
    const revenue = async () =>
      (await apiOk('GET', `/products/${slug}/attribution?days=30`, { token })).totals.revenue_cents;

    step('the product offers the database form next to payments');
    await page.goto(`${baseUrl}/#/p/${slug}/connections`);
    await page.getByText('No connections yet').waitFor();
    await page.getByRole('heading', { name: 'Connect payments (Stripe)' }).waitFor();
    const connect = page.getByRole('article', { name: 'Connect a database' });
    await connect.getByRole('heading', { name: 'Connect a database' }).waitFor();
    await connect.getByLabel('MySQL or MariaDB').check();
    const password = connect.getByLabel('Password', { exact: true });
    checkEqual(await password.getAttribute('type'), 'password', 'the password input hides what is typed');
    await connect.getByRole('button', { name: 'Show password' }).click();
    checkEqual(await password.getAttribute('type'), 'text', 'the password input after Show password');
    await connect.getByRole('button', { name: 'Hide password' }).click();

    step('a malformed host is refused in place, naming credentials.host');
    await connect.getByLabel('Host').fill('db .example.com');
    await connect.getByLabel('Port').fill(db.port);
    await connect.getByLabel('User').fill(db.user);
    await connect.getByLabel('Database').fill(db.database);
    await password.fill(db.password);
    await connect.getByLabel('Encryption (SSL mode)').selectOption('disable');
    await connect.getByRole('button', { name: 'Save connection' }).click();
    await connect.getByRole('alert').filter({ hasText: 'credentials.host' }).waitFor();
    checkEqual((await ofProduct()).length, 0, 'connections after the refused host');

    step('saving the credentials lists the database staged, without maps');
    await connect.getByLabel('Host').fill(db.host);
    // The browser must not have filled in the Payback password it saved at log-in.
    checkEqual(await password.inputValue(), db.password, 'the database password as typed');
    await connect.getByRole('button', { name: 'Save connection' }).click();
    const card = page.getByRole('article', { name: /MySQL or MariaDB database/ });
    await card.waitFor();
    checkEqual(await card.locator('.connection-status').textContent(), 'staged', 'the badge of a staged database');
    const target = `${db.user}@${db.host}:${db.port}/${db.database}`;
    await card.getByText(target).waitFor();
    checkEqual(await card.locator('.map-count').textContent(), 'no event maps yet', 'the card before any map');
    check(!(await connect.getByLabel('MySQL or MariaDB').isVisible()), 'a connected engine is no longer offered');
    const [staged] = await ofProduct();
    checkEqual(
      [staged.kind, staged.status, staged.event_maps, staged.config.target],
      ['sql_b', 'pending', [], target],
      'GET /connections after saving the credentials',
    );
    if (db.password) check(!JSON.stringify(staged).includes(db.password), 'the password never comes back');

    step('Sync now on a staged connection shows the 409 in place');
    await card.getByRole('button', { name: 'Sync now' }).click();
    await card.getByRole('alert').filter({ hasText: 'staged' }).waitFor();

    step('the editor is open; asking the model shows the 503 and leaves the presets usable');
    const editor = card.getByRole('region', { name: 'Event maps' });
    await editor.waitFor();
    await editor.getByRole('button', { name: 'Ask the model' }).click();
    await editor.getByRole('alert').filter({ hasText: 'PAYBACK_MODEL_GATEWAY_KEY' }).waitFor();
    await editor.getByRole('button', { name: 'Suggest from presets' }).click();
    const suggested = editor.getByRole('list', { name: 'Suggested maps' });
    await suggested.waitFor();
    check(!(await editor.getByText('PAYBACK_MODEL_GATEWAY_KEY').isVisible()), 'the 503 note gave way to the answer');
    const fitting = editor.getByRole('list', { name: 'Presets that fit' });
    await fitting.getByText(/Users, accounts or customers: fits/).waitFor();
    await fitting.getByText(/Orders and payments: fits/).waitFor();
    checkEqual(await fitting.getByRole('listitem').count(), 2, 'presets that fit users and orders');
    await editor.getByText('6 other presets (not fitting)').click();
    await editor.getByRole('list', { name: 'Presets that do not fit' }).getByText(/Django users: does not fit/).waitFor();
    await browser.screenshot(page, 'databases-suggestions');

    step('the users and orders suggestions go into the editor');
    await suggested.getByRole('button', { name: 'Add users → signup' }).click();
    await suggested.getByRole('button', { name: 'Add orders → payment' }).click();
    checkEqual(await suggested.getByRole('button', { name: 'Add orders → payment' }).textContent(), 'Added', 'after adding');
    const users = editor.getByRole('group', { name: 'Map 1: users → signup' });
    const orders = editor.getByRole('group', { name: 'Map 2: orders → payment' });
    await users.waitFor();
    await orders.waitFor();
    // The schema was read: the table is a choice among the tables, the columns as suggested.
    checkEqual(await orders.getByLabel('Table').inputValue(), 'orders', 'the table select of map 2');
    checkEqual(await users.getByLabel('Timestamp column').inputValue(), 'created_at', 'map 1 timestamp');
    checkEqual(await users.getByLabel('Email column').inputValue(), 'email', 'map 1 email');
    checkEqual(await orders.getByLabel('Amount column').inputValue(), 'amount_cents', 'map 2 amount');
    checkEqual(await orders.getByLabel('Amount unit').inputValue(), 'cents', 'map 2 unit');
    checkEqual(await orders.getByLabel('Currency column (optional)').inputValue(), 'currency', 'map 2 currency');
    check(!(await users.getByLabel('Amount column').isVisible()), 'a signup map has no revenue fields');

    step('one field adjusted: only paid orders count');
    await orders.getByRole('button', { name: 'Add condition' }).click();
    await orders.getByLabel('Filter 1 column').fill('status');
    await orders.getByLabel('Filter 1 comparison').selectOption('eq');
    await orders.getByLabel('Filter 1 value').fill('paid');

    step('an empty timestamp is refused in place, inside its map, naming the field');
    const activate = editor.getByLabel('Activate: read these tables hourly');
    check(await activate.isChecked(), 'Activate is on for a connection being set up');
    await users.getByLabel('Timestamp column').fill('');
    await editor.getByRole('button', { name: 'Save maps' }).click();
    const refusal = users.getByRole('alert').filter({ hasText: 'event_maps[0].timestamp' });
    await refusal.waitFor();
    checkEqual(await users.getByLabel('Timestamp column').getAttribute('aria-invalid'), 'true', 'the field is marked');
    const [unchanged] = await ofProduct();
    checkEqual([unchanged.status, unchanged.event_maps], ['pending', []], 'the refused maps were not saved');
    await browser.screenshot(page, 'databases-refused-map');

    step('saving with Activate stores both maps and activates the connection');
    await users.getByLabel('Timestamp column').fill('created_at');
    await editor.getByRole('button', { name: 'Save maps' }).click();
    await editor.getByRole('status').filter({ hasText: 'Saved 2 event maps; the connection is active' }).waitFor();
    check(!(await refusal.isVisible()), 'the refusal is gone after the save');
    await card.locator('.connection-status', { hasText: 'active' }).waitFor();
    const [active] = await ofProduct();
    checkEqual(active.status, 'active', 'GET /connections status after saving');
    checkEqual(
      active.event_maps.map((m) => [m.table, m.stage, m.timestamp]),
      [
        ['users', 'signup', 'created_at'],
        ['orders', 'payment', 'created_at'],
      ],
      'the saved maps',
    );
    checkEqual(active.event_maps[1].filter, [{ column: 'status', op: 'eq', value: 'paid' }], 'the adjusted filter');
    checkEqual(active.event_maps[1].revenue, { column: 'amount_cents', currency: 'currency', unit: 'cents' }, 'revenue');
    checkEqual(
      await card.locator('.map-count').textContent(),
      `${active.event_maps.length} event maps`,
      'the card map count vs GET /connections',
    );

    step('Test reaches the database with the stored credentials');
    await card.getByRole('button', { name: 'Test', exact: true }).click();
    await card.getByText(/^Test passed: /).waitFor();

    step('Sync now runs until the page shows the last sync');
    await card.getByRole('button', { name: 'Sync now' }).click();
    await card.getByText('history read: last 30 days').waitFor({ timeout: 60_000 });
    const [synced] = await ofProduct();
    checkEqual([synced.status, synced.syncing, synced.last_error], ['active', false, null], 'after the sync');
    check(synced.last_sync_at, 'the API has a last sync');
    await card.getByText(await shownTime(page, synced.last_sync_at), { exact: true }).first().waitFor();
    checkEqual(await revenue(), EXPECTED_REVENUE_CENTS, "the product's 30-day revenue after the sync");
    check(/orders: \d+ rows, \d+ events/.test(synced.last_detail ?? ''), `the API's last_detail: ${synced.last_detail}`);
    checkEqual(
      (await card.locator('.connection-detail').textContent())?.trim(),
      synced.last_detail,
      "the card's last run line vs GET /connections",
    );
    checkEqual(
      await card.locator('.map-count').textContent(),
      `${synced.event_maps.length} event maps`,
      'the card map count vs GET /connections after the sync',
    );
    await browser.screenshot(page, 'databases-product');

    step('the product page at phone width');
    await page.setViewportSize({ width: 375, height: 800 });
    await card.getByRole('button', { name: 'Sync now' }).waitFor();
    await browser.screenshot(page, 'databases-product-phone');
    await page.setViewportSize({ width: 1280, height: 900 });

    step('all connections lists the database as active');
    await page.goto(`${baseUrl}/#/connections`);
    const row = page.locator(`tr[data-row="${synced.id}"]`);
    await row.waitFor();
    check(await row.getByText('MySQL or MariaDB database').isVisible(), 'the row names the source');
    checkEqual(await row.locator('.connection-status').textContent(), 'active', 'the row status');
  },
  { timeoutMs: 180_000 },
);
