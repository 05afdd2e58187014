// A product's stored dashboards: the list with the prompt that makes a new one, and one
// dashboard with its editor. (A .ts file, so screens are made with `h`.)

import { h } from 'preact';
import type { Route } from '../../route';
import { DashboardPage } from './dashboard-page';
import { DashboardsPage } from './dashboards-page';

export const dashboardsRoutes: Route[] = [
  { pattern: '/p/:slug/dashboards', render: ({ params }) => h(DashboardsPage, { slug: params.slug }) },
  {
    pattern: '/p/:slug/dashboards/:id',
    render: ({ params }) => h(DashboardPage, { slug: params.slug, id: params.id }),
  },
];
