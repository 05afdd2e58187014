// The account pages in a browser: sign up, verify, log in and out, the unverified-login refusal,
// profile edits, API keys (the shown key works, a revoked one does not), inviting a member who
// accepts through the link on the page and sees the team without owner controls, disabling
// them, the history's account events (an owner's switch, no switch for members), creating and
// switching workspaces, claiming an agent-created account, and an existing login accepting an
// invite with its own password.
//
//   PAYBACK_URL=... PAYBACK_MAIL_DIR=... PAYBACK_ARTIFACTS=... node e2e/dashboard-account.mjs

import {
  PASSWORD,
  api,
  apiOk,
  baseUrl,
  check,
  checkEqual,
  mailLink,
  runBrowserTest,
  sessionToken,
  step,
  uniqueEmail,
} from './lib/harness.mjs';

/** Fills the login form and waits until the signed-in shell is up (whatever page `next` is). */
async function logInThroughForm(page, email, password = PASSWORD) {
  if (!page.url().includes('#/login')) await page.goto(`${baseUrl}/#/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('button', { name: 'Log out' }).waitFor();
}

async function logOut(page) {
  await page.getByRole('button', { name: 'Log out' }).click();
  await page.getByRole('button', { name: 'Log in' }).waitFor();
  check((await sessionToken(page)) === null, 'logging out leaves no session in the browser');
}

/** Signs up through the signup page and answers the email; the page shows "Check your inbox". */
async function signUp(page, name) {
  const email = uniqueEmail(name);
  await page.goto(`${baseUrl}/#/signup`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.getByText('Check your inbox').waitFor();
  check(await page.getByText(email).isVisible(), 'the inbox note names the address');
  return email;
}

runBrowserTest('dashboard-account', async (browser) => {
  const page = await browser.page();

  step('the signup page states the password rule and enforces it in the browser');
  await page.goto(`${baseUrl}/#/signup`);
  await page.getByText('10 to 200 characters.').waitFor();
  const minLength = await page.getByLabel('Password', { exact: true }).getAttribute('minlength');
  checkEqual(minLength, '10', 'signup password minlength');
  await browser.screenshot(page, 'account-signup');

  step('sign up, verify through the mailed link, see the banner, log in');
  const owner = await signUp(page, 'acct-owner');
  const verifyLink = await mailLink(owner, `${baseUrl}/auth/verify`);
  await page.goto(verifyLink);
  await page.waitForURL(/#\/login\?verified=1/);
  await page.getByText('Email verified. Log in to continue.').waitFor();
  await browser.screenshot(page, 'account-login');
  await logInThroughForm(page, owner);
  let ownerToken = await sessionToken(page);
  const me = await apiOk('GET', '/auth/me', { token: ownerToken });
  checkEqual(me.email, owner, 'signed-in email');

  step('log out and back in');
  await logOut(page);
  await logInThroughForm(page, owner);
  ownerToken = await sessionToken(page);

  step('an unverified signup cannot log in, and the page says why');
  await logOut(page);
  const unverified = await signUp(page, 'acct-unverified');
  await page.goto(`${baseUrl}/#/login`);
  await page.getByLabel('Email').fill(unverified);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  const refusal = page.getByRole('alert');
  await refusal.getByText('Verify your email first.').waitFor();
  const refusalText = await refusal.innerText();
  check(/not verified/i.test(refusalText), `the server's reason is shown: ${refusalText}`);
  check(/inbox/i.test(refusalText), `the refusal says to check the inbox: ${refusalText}`);
  check((await sessionToken(page)) === null, 'a refused login stores no session');

  step('a wrong password shows the server message in place');
  await page.getByLabel('Email').fill(owner);
  await page.getByLabel('Password').fill('not the password at all');
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('alert').getByText('wrong email or password').waitFor();

  step('a signed-out visit to a settings page returns there after login');
  await page.goto(`${baseUrl}/#/settings/profile`);
  await page.waitForURL(/#\/login\?next=/);
  await logInThroughForm(page, owner);
  await page.getByRole('heading', { name: 'Profile' }).waitFor();
  ownerToken = await sessionToken(page);

  step('profile: change the name');
  await page.getByLabel('Name', { exact: true }).fill('Ada Owner');
  await page.getByRole('button', { name: 'Save name' }).click();
  await page.getByText('Name saved.').waitFor();
  checkEqual((await apiOk('GET', '/auth/me', { token: ownerToken })).name, 'Ada Owner', 'name after edit');
  await page.getByRole('link', { name: 'Ada Owner' }).waitFor();

  step('profile: a wrong current password is refused in place and keeps the session');
  await page.getByLabel('Current password').fill('definitely wrong 1');
  await page.getByLabel('New password').fill('another good password');
  await page.getByRole('button', { name: 'Change password' }).click();
  await page.getByRole('alert').getByText('current password is wrong').waitFor();
  checkEqual(await sessionToken(page), ownerToken, 'session kept after a wrong current password');
  await page.getByText('signs out every other session').waitFor();
  await browser.screenshot(page, 'account-profile');

  step('API keys: create one, use it, revoke it');
  await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'API keys' }).click();
  await page.getByRole('heading', { name: 'API keys' }).waitFor();
  await page.getByText('No API keys yet').waitFor();
  await page.getByLabel('Key name').fill('e2e agent');
  await page.getByRole('button', { name: 'Create key' }).click();
  const shownKey = await page.getByRole('textbox', { name: 'New API key' }).inputValue();
  check(shownKey.startsWith('svc_live_'), `a full key is shown once: ${shownKey.slice(0, 12)}`);
  await page.getByText('will never show it again').waitFor();
  const portfolio = await api('GET', '/portfolio', { token: shownKey });
  checkEqual(portfolio.status, 200, 'GET /portfolio with the shown key');
  const keys = await apiOk('GET', '/auth/keys', { token: ownerToken });
  const created = keys.find((k) => k.name === 'e2e agent');
  check(created && shownKey.startsWith(created.prefix), 'the listed key has the shown key as prefix');
  const row = page.locator(`tr[data-row="${created.id}"]`);
  await row.getByText(`${created.prefix}…`).waitFor();
  checkEqual(created.created_by?.email, owner, 'the key lists the person who created it');
  await row.getByText(owner).waitFor();
  await browser.screenshot(page, 'account-keys');
  await page.getByRole('button', { name: 'I have copied it' }).click();
  check(!(await page.getByRole('textbox', { name: 'New API key' }).isVisible()), 'the key is gone once dismissed');
  await row.getByRole('button', { name: 'Revoke e2e agent' }).click();
  await row.getByText('stops working at once').waitFor();
  await row.getByRole('button', { name: 'Yes, revoke' }).click();
  await page.getByText('No API keys yet').waitFor();
  checkEqual((await api('GET', '/portfolio', { token: shownKey })).status, 401, 'revoked key refused');

  step('team: invite a member and read the link off the page');
  await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Team' }).click();
  await page.getByRole('heading', { name: 'Team', exact: true }).waitFor();
  const memberEmail = uniqueEmail('acct-member');
  await page.getByLabel('Email').fill(memberEmail);
  await page.getByLabel('Role').selectOption('member');
  await page.getByRole('button', { name: 'Send invite' }).click();
  const inviteUrl = await page.getByRole('textbox', { name: 'Invite link' }).inputValue();
  check(inviteUrl.includes('#/invite/'), `an invite link is shown: ${inviteUrl}`);
  const invited = (await apiOk('GET', '/team', { token: ownerToken })).find((m) => m.email === memberEmail);
  checkEqual(invited?.status, 'invited', 'the invitee is listed as invited');
  await page.locator(`tr[data-row="${invited.id}"]`).getByText('Invited, not yet joined').waitFor();
  await browser.screenshot(page, 'account-team');
  await page.setViewportSize({ width: 375, height: 800 });
  await browser.screenshot(page, 'account-team-phone');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  check(overflow <= 1, `the team page fits a 375px screen (overflows by ${overflow}px)`);
  await page.setViewportSize({ width: 1280, height: 900 });

  step('the invitee opens the link, chooses a password and joins');
  await logOut(page);
  await page.goto(inviteUrl.replace(/^https?:\/\/[^/]+/, baseUrl));
  await page.getByRole('heading', { name: `Join ${me.account_name}` }).waitFor();
  await page.getByText(memberEmail).first().waitFor();
  await page.getByLabel('Your name').fill('Bo Member');
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Accept invite' }).click();
  await page.getByRole('button', { name: 'Log out' }).waitFor();
  const memberToken = await sessionToken(page);
  const memberMe = await apiOk('GET', '/auth/me', { token: memberToken });
  checkEqual([memberMe.email, memberMe.member_role, memberMe.id], [memberEmail, 'member', me.id], 'member session');

  step('the member sees the team without owner controls');
  await page.goto(`${baseUrl}/#/settings/team`);
  await page.getByText('Only owners can invite').waitFor();
  await page.getByText(owner).waitFor();
  checkEqual(await page.getByRole('button', { name: 'Send invite' }).count(), 0, 'member sees no invite form');
  checkEqual(await page.getByRole('button', { name: /^Disable / }).count(), 0, 'member sees no disable buttons');
  checkEqual(await page.getByRole('button', { name: /^Make / }).count(), 0, 'member sees no role buttons');

  step("the member's history offers no account events (owners only)");
  await page.goto(`${baseUrl}/#/history`);
  await page.getByText('No history in this window').waitFor();
  checkEqual(await page.getByRole('switch').count(), 0, 'member sees no account-events switch');

  step('the used invite link now explains itself');
  await logOut(page);
  await page.goto(inviteUrl.replace(/^https?:\/\/[^/]+/, baseUrl));
  await page.getByRole('alert').waitFor();
  await page.getByRole('link', { name: 'log in' }).waitFor();

  step('the owner disables the member; disabling oneself is not offered');
  await logInThroughForm(page, owner);
  ownerToken = await sessionToken(page);
  await page.goto(`${baseUrl}/#/settings/team`);
  const memberRow = page.locator(`tr[data-row="${invited.id}"]`);
  await memberRow.getByRole('button', { name: 'Disable Bo Member' }).click();
  await memberRow.getByRole('button', { name: 'Yes, disable' }).click();
  await memberRow.getByText('Disabled').waitFor();
  const afterDisable = (await apiOk('GET', '/team', { token: ownerToken })).find((m) => m.id === invited.id);
  checkEqual(afterDisable.status, 'disabled', 'member status after disable');
  checkEqual((await api('GET', '/auth/me', { token: memberToken })).status, 401, 'disabled member session revoked');
  checkEqual(await page.getByRole('button', { name: /^Disable Ada Owner/ }).count(), 0, 'no disable on own row');

  step('history: the products only by default; the owner switches account events on and finds the disable');
  await page.goto(`${baseUrl}/#/history`);
  // No product in this workspace: nothing by default, though the account has plenty of events.
  await page.getByText('No history in this window').waitFor();
  const accountSwitch = page.getByRole('switch', { name: /Account events too/ });
  check(!(await accountSwitch.isChecked()), 'account events are off by default');
  await accountSwitch.check();
  await page.waitForURL(/#\/history\?account=1$/);
  const disableRow = page.locator('tr', { has: page.locator('code', { hasText: /^team\.disable$/ }) });
  await disableRow.waitFor();
  check((await disableRow.innerText()).includes(owner), 'the disable row names the owner who disabled');
  check((await page.locator('code', { hasText: /^api_key\.create$/ }).count()) >= 1, 'key creation is listed');
  checkEqual(await page.locator('code', { hasText: /^auth\.login$/ }).count(), 0, 'sign-ins are never listed');
  await browser.screenshot(page, 'account-history-account-events');
  await accountSwitch.uncheck();
  await page.getByText('No history in this window').waitFor();
  // Back to the settings pages, where the next step starts.
  await page.goto(`${baseUrl}/#/settings/team`);
  await page.getByRole('navigation', { name: 'Settings' }).waitFor();

  step('workspaces: create a second one, then switch back');
  await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Workspaces' }).click();
  await page.getByRole('heading', { name: 'Workspaces' }).waitFor();
  await page.getByLabel('Workspace name').fill('Second Shop');
  await page.getByRole('button', { name: 'Create workspace' }).click();
  await page.getByText('Created Second Shop; you are now in it.').waitFor();
  const inSecond = await apiOk('GET', '/auth/me', { token: ownerToken });
  checkEqual([inSecond.account_name, inSecond.member_role], ['Second Shop', 'owner'], 'session in the new workspace');
  const secondRow = page.locator(`tr[data-row="${inSecond.id}"]`);
  await secondRow.getByText('current').waitFor();
  await page.getByRole('button', { name: `Switch to ${me.account_name}` }).click();
  await page.waitForURL(/#\/$/);
  checkEqual((await apiOk('GET', '/auth/me', { token: ownerToken })).id, me.id, 'switched back to the first workspace');
  const workspaces = await apiOk('GET', '/auth/accounts', { token: ownerToken });
  checkEqual(workspaces.map((w) => w.name).sort(), [me.account_name, 'Second Shop'].sort(), 'workspace list');

  step('an agent-created account is claimed through its link');
  await logOut(page);
  const claimer = uniqueEmail('acct-claim');
  const agent = await apiOk('POST', '/auth/agent-signup', { body: { email: claimer } });
  await page.goto(agent.claim_url.replace(/^https?:\/\/[^/]+/, baseUrl));
  await page.getByRole('heading', { name: 'Claim your account' }).waitFor();
  await page.getByText(claimer).first().waitFor();
  // The agent's key is listed before the claim, so the human knows what can act for them.
  await page.getByRole('region', { name: 'API keys of this workspace' }).getByText('by an agent').waitFor();
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Claim account' }).click();
  await page.getByRole('button', { name: 'Log out' }).waitFor();
  const claimed = await apiOk('GET', '/auth/me', { token: await sessionToken(page) });
  checkEqual([claimed.email, claimed.id, claimed.verified], [claimer, agent.account_id, true], 'claimed account');
  checkEqual((await api('GET', '/portfolio', { token: agent.api_key })).status, 200, "the agent's key still works");

  step('an existing login joins with its own password, never through the link alone');
  await logOut(page);
  // The owner's browser session ended with the log-out above: sign in again through the API.
  const ownerAgain = await apiOk('POST', '/auth/login', { body: { email: owner, password: PASSWORD } });
  checkEqual(ownerAgain.account.id, me.id, 'the owner signs in to the first workspace');
  const second = await apiOk('POST', '/team/invites', { token: ownerAgain.token, body: { email: claimer } });
  checkEqual(second.already_registered, true, 'the claimed owner already has a login');
  await page.goto(second.invite_url.replace(/^https?:\/\/[^/]+/, baseUrl));
  await page.getByRole('heading', { name: `Join ${me.account_name}` }).waitFor();
  await page.getByLabel('Your Payback password').fill('not the right password');
  await page.getByRole('button', { name: 'Accept invite' }).click();
  await page.getByRole('alert').getByText('wrong password').waitFor();
  await page.getByLabel('Your Payback password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Accept invite' }).click();
  await page.getByRole('button', { name: 'Log out' }).waitFor();
  const joined = await apiOk('GET', '/auth/me', { token: await sessionToken(page) });
  checkEqual([joined.email, joined.id], [claimer, me.id], 'the existing login joined the inviting workspace');

  step('a bad invite link says so and offers the login page');
  await logOut(page);
  await page.goto(`${baseUrl}/#/invite/not-a-real-token`);
  await page.getByRole('alert').waitFor();
  await page.getByRole('link', { name: 'log in' }).waitFor();
}, { timeoutMs: 90_000 });
