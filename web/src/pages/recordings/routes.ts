// The Recordings list of a product. (A .ts file, so the screen is made with `h`.)

import { h } from 'preact';
import type { Route } from '../../route';
import { readDays } from '../../ui/window-picker';
import { RecordingsPage } from './recordings-page';

export const recordingsRoutes: Route[] = [
  {
    pattern: '/p/:slug/recordings',
    render: ({ params, query }) =>
      h(RecordingsPage, { slug: params.slug, days: readDays(query), signal: query.get('signal') }),
  },
];
