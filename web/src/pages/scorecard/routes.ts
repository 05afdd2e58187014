// The weekly scorecard: a product's page, and the read-only view of a shared one (no session).
// (A .ts file, so the screens are made with `h`.)

import { h } from 'preact';
import type { Route } from '../../route';
import { ScorecardPage } from './scorecard-page';
import { SharedScorecardPage } from './shared-page';

export const scorecardRoutes: Route[] = [
  { pattern: '/p/:slug/scorecard', render: ({ params }) => h(ScorecardPage, { slug: params.slug }) },
  {
    pattern: '/shared/scorecard/:token',
    public: true,
    render: ({ params }) => h(SharedScorecardPage, { token: params.token, key: params.token }),
  },
];
