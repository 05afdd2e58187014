// The account area: the public ways in (login, signup, invite, claim, SSO) and the
// signed-in settings pages.

import { h } from 'preact';
import type { Route } from '../../route';
import { ClaimPage } from './claim-page';
import { InvitePage } from './invite-page';
import { KeysPage } from './keys-page';
import { LoginPage } from './login-page';
import { ProfilePage } from './profile-page';
import { SignupPage } from './signup-page';
import { SsoPage } from './sso-page';
import { TeamPage } from './team-page';
import { WorkspacesPage } from './workspaces-page';

export const accountRoutes: Route[] = [
  { pattern: '/login', public: true, render: ({ query }) => h(LoginPage, { query }) },
  { pattern: '/signup', public: true, render: () => h(SignupPage, {}) },
  // Keyed by token so a second link opened in the same tab starts from a clean page.
  { pattern: '/invite/:token', public: true, render: ({ params }) => h(InvitePage, { token: params.token, key: params.token }) },
  { pattern: '/claim/:token', public: true, render: ({ params }) => h(ClaimPage, { token: params.token, key: params.token }) },
  // Where the SSO callback lands: the one-time ticket is traded for a session once.
  { pattern: '/auth/sso/:ticket', public: true, render: ({ params }) => h(SsoPage, { ticket: params.ticket, key: params.ticket }) },
  { pattern: '/settings', render: () => h(ProfilePage, {}) },
  { pattern: '/settings/profile', render: () => h(ProfilePage, {}) },
  { pattern: '/settings/workspaces', render: () => h(WorkspacesPage, {}) },
  { pattern: '/settings/team', render: () => h(TeamPage, {}) },
  { pattern: '/settings/keys', render: () => h(KeysPage, {}) },
];
