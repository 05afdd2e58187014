// A product's growth actions and their coding-agent prompts. (A .ts file, so the screen is made
// with `h`.)

import { h } from 'preact';
import type { Route } from '../../route';
import { readDays } from '../../ui/window-picker';
import { readAgent } from './agents';
import { GrowthPage } from './growth-page';

export const growthRoutes: Route[] = [
  {
    pattern: '/p/:slug/growth',
    render: ({ params, query }) =>
      h(GrowthPage, { slug: params.slug, days: readDays(query), tool: readAgent(query) }),
  },
];
