// The connections area: one product's sources, and every connection of the workspace.
// (A .ts file, so screens are made with `h`.)

import { h } from 'preact';
import type { Route } from '../../route';
import { AllConnectionsPage } from './all-connections-page';
import { ProductConnectionsPage } from './product-connections-page';

export const connectionsRoutes: Route[] = [
  { pattern: '/connections', render: () => h(AllConnectionsPage, {}) },
  {
    pattern: '/p/:slug/connections',
    render: ({ params, query }) => h(ProductConnectionsPage, { key: params.slug, slug: params.slug, query }),
  },
];
