// A product's health audit. (A .ts file, so the screen is made with `h`.)

import { h } from 'preact';
import type { Route } from '../../route';
import { readDays } from '../../ui/window-picker';
import { HealthPage } from './health-page';

export const healthRoutes: Route[] = [
  {
    pattern: '/p/:slug/health',
    render: ({ params, query }) => h(HealthPage, { slug: params.slug, days: readDays(query) }),
  },
];
