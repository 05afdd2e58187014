// The portfolio and the reports of one product: overview, attribution, sales, ads.
// (A .ts file, so screens are created with h() rather than JSX.)

import { h } from 'preact';
import type { Route } from '../../route';
import { AdsPage, levelFrom } from './ads-page';
import { AttributionPage } from './attribution-page';
import { OverviewPage } from './overview-page';
import { PortfolioPage } from './portfolio-page';
import { SalesPage } from './sales-page';
import { readDays } from '../../ui/window-picker';

export const portfolioRoutes: Route[] = [
  { pattern: '/', render: () => h(PortfolioPage, {}) },
  { pattern: '/p/:slug', render: ({ params }) => h(OverviewPage, { slug: params.slug }) },
  {
    pattern: '/p/:slug/attribution',
    render: ({ params, query }) => h(AttributionPage, { slug: params.slug, days: readDays(query, 3650) }),
  },
  {
    pattern: '/p/:slug/sales',
    render: ({ params, query }) => h(SalesPage, { slug: params.slug, days: readDays(query, 3650), query }),
  },
  {
    pattern: '/p/:slug/ads',
    render: ({ params, query }) =>
      h(AdsPage, { slug: params.slug, days: readDays(query, 3650), level: levelFrom(query) }),
  },
];
