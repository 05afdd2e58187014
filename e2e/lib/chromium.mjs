// Debian's headless Chromium as every browser test starts it: a fresh profile in `userDataDir`,
// no sandbox (tests run as root), and none of the background networking this closed machine
// would refuse (each refusal is a console error that hides the page's own).

import { chromium } from 'playwright-core';

export function launchChromium(userDataDir, options = {}) {
  return chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: true,
    ...options,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
