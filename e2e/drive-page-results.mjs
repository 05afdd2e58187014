// Opens a page in Debian's headless Chromium and prints what its script reports:
//   node e2e/drive-page-results.mjs <page-url>
// The page sets `window.results` to a promise (or a value); once it settles, its JSON goes to
// stdout and the log to stderr. The caller serves the page and checks both what the page saw
// and what the server stored (crates/testkit/tests/integration/snippet.rs: a site's own `fetch` of
// `POST /t/events`, preflighted because it sends `application/json`). Exits non-zero on a page
// error or when the page reports nothing.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium } from './lib/chromium.mjs';

const pageUrl = process.argv[2];
if (!pageUrl) {
  console.error('usage: node drive-page-results.mjs <page-url>');
  process.exit(2);
}

// A hung browser must not hang the test that runs us.
const deadline = setTimeout(() => {
  console.error('drive-page-results: timed out after 60 s');
  process.exit(3);
}, 60_000);

const problems = [];
let results;
const userDataDir = mkdtempSync(join(tmpdir(), 'payback-chromium-'));
const context = await launchChromium(userDataDir);

try {
  const page = context.pages()[0] || (await context.newPage());
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  // Refused requests log console errors too (a 413 is one); they are the page's to report.
  page.on('console', (msg) => console.error(`console ${msg.type()}: ${msg.text()}`));
  context.on('request', (req) => console.error(`request: ${req.method()} ${req.url()}`));
  context.on('response', (res) => console.error(`response: ${res.status()} ${res.request().method()} ${res.url()}`));
  context.on('requestfailed', (req) =>
    console.error(`failed: ${req.method()} ${req.url()}: ${req.failure()?.errorText}`),
  );

  await page.goto(pageUrl, { waitUntil: 'load' });
  results = await page.evaluate(() => window.results);
  if (results === undefined) problems.push('the page set no window.results');
} catch (err) {
  problems.push(`driver: ${err.message}`);
} finally {
  await context.close().catch(() => {});
  rmSync(userDataDir, { recursive: true, force: true });
  clearTimeout(deadline);
}

if (problems.length) {
  for (const p of problems) console.error(p);
  process.exit(1);
}
process.stdout.write(JSON.stringify(results));
console.error('drive-page-results: done');
