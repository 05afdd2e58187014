// The organic social report: a product's audience, networks, daily trend and posts. (A .ts
// file, so the screen is made with `h`.)

import { h } from 'preact';
import type { Route } from '../../route';
import { readDays } from '../../ui/window-picker';
import { SocialPage } from './social-page';

export const socialRoutes: Route[] = [
  {
    pattern: '/p/:slug/social',
    render: ({ params, query }) => h(SocialPage, { slug: params.slug, days: readDays(query) }),
  },
];
