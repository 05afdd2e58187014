// Drives the tracking snippet in Debian's headless Chromium, the way a visitor would:
//   node e2e/drive-snippet.mjs <page-url>
// The page must load {base}/svc.js. Steps: land on the page from a Google referrer, navigate
// in-app with history.pushState, identify, track a signup and a valued conversion, then leave
// the page so the last batch goes out as a beacon. Exits non-zero on any page error or any
// refused POST /t/events; the caller checks what the server stored.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium } from './lib/chromium.mjs';

const pageUrl = process.argv[2];
if (!pageUrl) {
  console.error('usage: node drive-snippet.mjs <page-url>');
  process.exit(2);
}

// A hung browser must not hang the test that runs us.
const deadline = setTimeout(() => {
  console.error('drive-snippet: timed out after 60 s');
  process.exit(3);
}, 60_000);

const problems = [];
const userDataDir = mkdtempSync(join(tmpdir(), 'payback-chromium-'));
const context = await launchChromium(userDataDir);

try {
  const page = context.pages()[0] || (await context.newPage());
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error' || msg.type() === 'warning') console.error(`console ${msg.type()}: ${msg.text()}`);
  });
  // Responses to the snippet's own requests: anything but 200 means events were refused.
  context.on('response', (res) => {
    const req = res.request();
    if (req.method() === 'POST' && new URL(req.url()).pathname.endsWith('/t/events')) {
      console.error(`POST /t/events -> ${res.status()}`);
      if (res.status() !== 200) problems.push(`POST /t/events answered ${res.status()}`);
    }
  });

  const step = (name) => console.error(`step: ${name}`);

  step('land from google');
  // The landing visit goes out on the snippet's 2 s timer (fetch); waiting for its answer runs
  // both send paths (fetch now, beacon at the end) and keeps the stored order predictable.
  const landingBatch = page.waitForResponse(
    (res) => res.request().method() === 'POST' && new URL(res.url()).pathname.endsWith('/t/events'),
    { timeout: 15_000 },
  );
  await page.goto(pageUrl, { referer: 'https://www.google.com/', waitUntil: 'load' });
  await page.waitForFunction(() => window.svc && typeof window.svc.track === 'function', null, { timeout: 10_000 });
  await landingBatch;

  step('in-app navigation to /pricing');
  await page.evaluate(() => history.pushState({}, '', '/pricing'));

  step('identify');
  await page.evaluate(() => window.svc.identify('user-42', { email: 'buyer@example.com', plan: 'pro' }));

  step('track signup');
  await page.evaluate(() => window.svc.track('signup', { name: 'signup_form' }));

  step('track converted');
  await page.evaluate(() => window.svc.track('converted', { value: 4900, currency: 'USD' }));

  step('leave the page (pagehide sends the beacon)');
  await page.goto('about:blank');
  // The beacon is sent by the browser after the page is gone; give it time before closing.
  await page.waitForTimeout(1_500);
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
console.error('drive-snippet: done');
