// The funnel area: the funnel report with its definition editor, conversion definitions and
// their report, and the tracking setup. (A .ts file, so screens are made with `h`.)

import { h } from 'preact';
import type { Route } from '../../route';
import { ConversionsPage } from './conversions-page';
import { FunnelPage } from './funnel-page';
import { TrackingPage } from './tracking-page';
import { readDays } from '../../ui/window-picker';

export const funnelRoutes: Route[] = [
  {
    pattern: '/p/:slug/funnel',
    render: ({ params, query }) => h(FunnelPage, { slug: params.slug, days: readDays(query) }),
  },
  {
    pattern: '/p/:slug/conversions',
    render: ({ params, query }) => h(ConversionsPage, { slug: params.slug, days: readDays(query) }),
  },
  {
    pattern: '/p/:slug/tracking',
    render: ({ params }) => h(TrackingPage, { slug: params.slug }),
  },
];
