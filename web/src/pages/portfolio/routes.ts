// The portfolio and the reports of one product: overview, attribution, sales, ads.
// (A .ts file, so screens are created with h() rather than JSX.)

import { h } from 'preact';
import type { Route } from '../../routes';
import { AdsPage, levelFrom } from './ads-page';
import { AttributionPage } from './attribution-page';
import { OverviewPage } from './overview-page';
import { PortfolioPage } from './portfolio-page';
import { SalesPage } from './sales-page';
import { daysFrom } from './window-picker';

export const portfolioRoutes: Route[] = [
  { pattern: '/', render: () => h(PortfolioPage, {}) },
  { pattern: '/p/:slug', render: ({ params }) => h(OverviewPage, { slug: params.slug }) },
  {
    pattern: '/p/:slug/attribution',
    render: ({ params, query }) => h(AttributionPage, { slug: params.slug, days: daysFrom(query) }),
  },
  {
    pattern: '/p/:slug/sales',
    render: ({ params, query }) => h(SalesPage, { slug: params.slug, days: daysFrom(query), query }),
  },
  {
    pattern: '/p/:slug/ads',
    render: ({ params, query }) =>
      h(AdsPage, { slug: params.slug, days: daysFrom(query), level: levelFrom(query) }),
  },
];
