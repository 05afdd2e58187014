// The Pages area: a product's landing pages with traffic and filters, and one page's detail.
// (A .ts file, so the screens are made with `h`.)

import { h } from 'preact';
import type { Route } from '../../route';
import { readDays } from '../../ui/window-picker';
import { PageDetailPage } from './page-detail';
import { PagesPage } from './pages-page';

export const pagesRoutes: Route[] = [
  {
    pattern: '/p/:slug/pages',
    render: ({ params, query }) => h(PagesPage, { slug: params.slug, days: readDays(query) }),
  },
  {
    pattern: '/p/:slug/pages/:id',
    render: ({ params, query }) => h(PageDetailPage, { slug: params.slug, id: params.id, days: readDays(query) }),
  },
];
