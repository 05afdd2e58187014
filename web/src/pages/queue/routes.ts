// The queue area's screens: the approval queue, the history (workspace-wide and per product),
// a product's spend with its caps and policy, its distribution log, and the portfolio policy.

import { h } from 'preact';
import type { Route } from '../../route';
import { DistributionPage } from './distribution-page';
import { HistoryPage, ProductHistoryPage } from './history-page';
import { PortfolioPolicyPage } from './portfolio-policy-page';
import { QueuePage } from './queue-page';
import { SpendPage } from './spend-page';

export const queueRoutes: Route[] = [
  { pattern: '/queue', render: ({ query }) => h(QueuePage, { query }) },
  { pattern: '/history', render: ({ query }) => h(HistoryPage, { query }) },
  { pattern: '/p/:slug/history', render: ({ params, query }) => h(ProductHistoryPage, { key: params.slug, slug: params.slug, query }) },
  { pattern: '/p/:slug/spend', render: ({ params, query }) => h(SpendPage, { key: params.slug, slug: params.slug, query }) },
  {
    pattern: '/p/:slug/distribution',
    render: ({ params, query }) => h(DistributionPage, { key: params.slug, slug: params.slug, query }),
  },
  { pattern: '/settings/policy', render: () => h(PortfolioPolicyPage, {}) },
];
