// Shared by the dashboard's browser tests: launches Debian's Chromium through playwright-core,
// fails on any page error or unexpected console error, reads mail the `file:` transport wrote,
// calls the API directly to compare numbers, and saves screenshots as artifacts.
//
// A test script is run by crates/testkit/tests/dashboard.rs (or by hand) with:
//   PAYBACK_URL        the service's base URL, e.g. http://127.0.0.1:8080
//   PAYBACK_MAIL_DIR   the directory of the `file:` mail transport
//   PAYBACK_ARTIFACTS  where screenshots go (created if missing)
// It exits 0 when every check held, non-zero with the reasons on stderr otherwise.

import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium } from './chromium.mjs';

export const baseUrl = required('PAYBACK_URL');
export const mailDir = required('PAYBACK_MAIL_DIR');
export const artifacts = process.env.PAYBACK_ARTIFACTS || join(tmpdir(), 'payback-e2e-artifacts');

function required(name) {
  const value = process.env[name];
  if (!value) {
    console.error(`${name} is not set (see e2e/lib/harness.mjs)`);
    process.exit(2);
  }
  return value.replace(/\/$/, '');
}

/**
 * A setting a script needs beyond the harness's own (a customer database's host, an expected
 * total), from the environment; exits with the reason when it is missing. `fallback` is used
 * when the variable is unset (pass '' for optional values such as an empty password).
 */
export function envSetting(name, fallback) {
  const value = process.env[name];
  if (value !== undefined) return value;
  if (fallback !== undefined) return fallback;
  console.error(`${name} is not set (the Rust test that runs this script passes it)`);
  process.exit(2);
}

export class CheckFailed extends Error {}

/** Fails the test with `message` unless `condition` holds. */
export function check(condition, message) {
  if (!condition) throw new CheckFailed(message);
}

/** Fails unless `actual` equals `expected` (compared as JSON). */
export function checkEqual(actual, expected, what) {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) throw new CheckFailed(`${what}: expected ${e}, got ${a}`);
}

export function step(name) {
  console.error(`step: ${name}`);
}

/**
 * Runs `body(browser)` against a fresh headless Chromium with a phone-or-desktop viewport,
 * collecting page errors; exits the process with the outcome. `timeoutMs` bounds the whole run.
 */
export async function runBrowserTest(name, body, { timeoutMs = 120_000 } = {}) {
  const deadline = setTimeout(() => {
    console.error(`${name}: timed out after ${timeoutMs / 1000} s`);
    process.exit(3);
  }, timeoutMs);
  mkdirSync(artifacts, { recursive: true });
  const problems = [];
  const userDataDir = mkdtempSync(join(tmpdir(), 'payback-chromium-'));
  const context = await launchChromium(userDataDir, { viewport: { width: 1280, height: 900 } });
  context.setDefaultTimeout(15_000);
  const browser = {
    context,
    problems,
    /** The first tab, with errors reported. */
    async page() {
      const page = context.pages()[0] || (await context.newPage());
      watch(page, problems);
      return page;
    },
    /** Saves a full-page screenshot as `<artifacts>/<file>.png`. */
    async screenshot(page, file) {
      await page.screenshot({ path: join(artifacts, `${file}.png`), fullPage: true });
    },
  };
  let failed = false;
  try {
    await body(browser);
  } catch (err) {
    failed = true;
    console.error(`${name}: ${err instanceof CheckFailed ? 'check failed' : 'error'}: ${err.stack || err.message}`);
    const page = context.pages()[0];
    if (page) {
      await page.screenshot({ path: join(artifacts, `${name}-failure.png`), fullPage: true }).catch(() => {});
      const text = await page.evaluate(() => document.body.innerText).catch(() => '');
      console.error(`page at failure (${page.url()}):\n${text.slice(0, 3000)}`);
    }
  } finally {
    await context.close().catch(() => {});
    rmSync(userDataDir, { recursive: true, force: true });
    clearTimeout(deadline);
  }
  for (const problem of problems) console.error(problem);
  if (failed || problems.length) process.exit(1);
  console.error(`${name}: passed`);
  process.exit(0);
}

function watch(page, problems) {
  if (page.__paybackWatched) return;
  page.__paybackWatched = true;
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    // Refused API calls are logged by the browser as failed resources; tests that provoke them
    // check the message shown instead.
    if (/Failed to load resource/.test(msg.text())) return;
    problems.push(`console error: ${msg.text()}`);
  });
}

/** Calls the API as `token` (a session or key); answers `{status, body}`. */
export async function api(method, path, { token, body } = {}) {
  const headers = { Accept: 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // CSV or plain text answers stay strings.
  }
  return { status: response.status, body: parsed };
}

/** Like `api`, but fails unless the status is `expected`; answers the body. */
export async function apiOk(method, path, options = {}, expected = 200) {
  const reply = await api(method, path, options);
  check(reply.status === expected, `${method} ${path} answered ${reply.status}: ${JSON.stringify(reply.body)}`);
  return reply.body;
}

/**
 * Integer cents as the app shows them (web/src/format.ts), formatted inside the page so both
 * sides use the browser's locale.
 */
export function money(page, cents, currency) {
  return page.evaluate(
    ([value, code]) => {
      const format = new Intl.NumberFormat(undefined, { style: 'currency', currency: code });
      const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
      const units = value / 100;
      return format.format(digits === 0 ? Math.round(units) : units);
    },
    [cents, currency],
  );
}

/** The session token the app stored after signing in. */
export async function sessionToken(page) {
  return page.evaluate(() => localStorage.getItem('payback.session'));
}

/**
 * The first link starting with `prefix` in the newest mail to `to`, waiting up to 10 s for the
 * message. Decodes quoted-printable bodies.
 */
export async function mailLink(to, prefix) {
  const until = Date.now() + 10_000;
  for (;;) {
    const link = findMailLink(to, prefix);
    if (link) return link;
    check(Date.now() < until, `no mail to ${to} with a link starting ${prefix} in ${mailDir}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function findMailLink(to, prefix) {
  let files = [];
  try {
    files = readdirSync(mailDir)
      .filter((f) => f.endsWith('.eml'))
      .map((f) => join(mailDir, f))
      .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  } catch {
    return null;
  }
  for (const file of files) {
    const raw = readFileSync(file, 'utf8');
    const split = raw.search(/\r?\n\r?\n/);
    const head = raw.slice(0, split);
    if (!new RegExp(`^To:.*${escapeRegExp(to)}`, 'mi').test(head)) continue;
    let body = raw.slice(split).trim();
    if (/Content-Transfer-Encoding:\s*quoted-printable/i.test(head)) body = decodeQuotedPrintable(body);
    const at = body.indexOf(prefix);
    if (at >= 0) return body.slice(at).split(/\s/)[0];
  }
  return null;
}

function decodeQuotedPrintable(text) {
  return text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_, hex) => String.fromCharCode(parseInt(hex, 16)));
}

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A unique email for this run, so scripts can run twice against one server. */
export function uniqueEmail(name) {
  return `${name}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;
}

export const PASSWORD = 'correct horse battery';

/**
 * Signs a new person up through the browser, verifies through the mailed link, and logs in.
 * Answers the email; leaves `page` on the portfolio.
 */
export async function signUpAndLogIn(page, name) {
  const email = uniqueEmail(name);
  await page.goto(`${baseUrl}/#/signup`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.getByText('Check your inbox').waitFor();
  const link = await mailLink(email, `${baseUrl}/auth/verify`);
  await page.goto(link);
  await page.waitForURL(/#\/login\?verified=1/);
  await logIn(page, email);
  return email;
}

/** Logs `email` in from the login page and waits for the portfolio. */
export async function logIn(page, email, password = PASSWORD) {
  if (!page.url().includes('#/login')) await page.goto(`${baseUrl}/#/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('heading', { name: 'Portfolio' }).waitFor();
}
