// The demand report: where a product's demand comes from before it becomes a visit. (A .ts
// file, so the screen is made with `h`.)

import { h } from 'preact';
import type { Route } from '../../route';
import { readDays } from '../../ui/window-picker';
import { DemandPage } from './demand-page';

export const demandRoutes: Route[] = [
  {
    pattern: '/p/:slug/demand',
    render: ({ params, query }) => h(DemandPage, { slug: params.slug, days: readDays(query) }),
  },
];
