// Sign in with Google in a browser, against the loopback fake OpenID provider: the signup and
// login pages offer "Sign in with Google" (the server says SSO is configured); the button leaves
// for the service's /auth/sso/start, which sends the browser to the fake's sign-in screen, which
// sends it back through the service's callback to `#/auth/sso/<ticket>`; that page trades the
// ticket for a session and opens the portfolio of the new workspace, signed in as the provider's
// person; the ticket is gone from the address bar, and opening it again says it cannot be used.
//
// Run by crates/testkit/tests/integration/dashboard_sso.rs, which starts the fake and configures
// the service. Besides the harness's variables it needs:
//   PAYBACK_E2E_EMAIL   the email the fake provider signs in
//   PAYBACK_E2E_NAME    the name it gives

import { api, baseUrl, check, checkEqual, envSetting, runBrowserTest, sessionToken, step } from './lib/harness.mjs';

const email = envSetting('PAYBACK_E2E_EMAIL');
const name = envSetting('PAYBACK_E2E_NAME');

await runBrowserTest('dashboard-sso', async (browser) => {
  const page = await browser.page();
  const visited = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) visited.push(frame.url());
  });

  step('the signup page offers Sign in with Google');
  await page.goto(`${baseUrl}/#/signup`);
  const onSignup = page.getByRole('button', { name: 'Sign in with Google' });
  await onSignup.waitFor();
  checkEqual(await onSignup.getAttribute('href'), '/auth/sso/start', 'the signup button');

  step('the login page offers it too, and it signs in through the provider');
  await page.goto(`${baseUrl}/#/login`);
  const onLogin = page.getByRole('button', { name: 'Sign in with Google' });
  await onLogin.waitFor();
  await browser.screenshot(page, 'sso-login-page');
  await onLogin.click();
  await page.getByRole('heading', { name: 'Portfolio' }).waitFor();
  await browser.screenshot(page, 'sso-portfolio');

  step('the session is the provider person\'s, in a new workspace');
  const token = await sessionToken(page);
  check(token && token.startsWith('svc_sess_'), `a session token is stored: ${token}`);
  const me = await api('GET', '/auth/me', { token });
  checkEqual(me.status, 200, 'GET /auth/me');
  checkEqual(me.body.email, email, 'the signed-in email');
  checkEqual(me.body.name, name, 'the name from the provider');
  checkEqual(me.body.member_role, 'owner', 'the new workspace\'s role');

  step('the browser went through the provider and the ticket route, and left it');
  const ticketUrl = visited.find((url) => url.includes('#/auth/sso/'));
  check(ticketUrl, `the ticket route was visited: ${visited.join(' ')}`);
  check(!page.url().includes('/auth/sso/'), `the ticket left the address bar: ${page.url()}`);
  for (const url of visited) {
    check(!/[?&#]code=/.test(url), `no provider code in a page's address: ${url}`);
  }

  step('a used ticket cannot sign in again');
  await page.evaluate(() => localStorage.removeItem('payback.session'));
  await page.goto(ticketUrl);
  await page.getByText('This sign-in link cannot be used').waitFor();
  check((await sessionToken(page)) === null, 'no session from a used ticket');
  await browser.screenshot(page, 'sso-used-ticket');
});
