// Every product page sits in this frame: the product's name, its stage, and the tabs between
// its pages. The product row is loaded once here and handed to the page.

import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';
import { href } from '../router';
import type { ProductRow } from '../types';
import { Await } from './states';
import { useApi } from './use-api';

export const productTabs: { path: string; label: string }[] = [
  { path: '', label: 'Overview' },
  { path: '/attribution', label: 'Attribution' },
  { path: '/sales', label: 'Sales' },
  { path: '/ads', label: 'Ads' },
  { path: '/funnel', label: 'Funnel' },
  { path: '/conversions', label: 'Conversions' },
  { path: '/spend', label: 'Spend' },
  { path: '/distribution', label: 'Distribution' },
  { path: '/tracking', label: 'Tracking' },
  { path: '/connections', label: 'Connections' },
  { path: '/history', label: 'History' },
];

export function ProductFrame({
  slug,
  tab,
  actions,
  children,
}: {
  slug: string;
  /** The current tab's path suffix, e.g. `/funnel`; `''` for the overview. */
  tab: string;
  actions?: ComponentChildren;
  children: (product: ProductRow, reload: () => void) => ComponentChildren;
}) {
  const loaded = useApi<ProductRow>(`/products/${encodeURIComponent(slug)}`);
  const label = productTabs.find((t) => t.path === tab)?.label ?? '';
  useEffect(() => {
    if (loaded.data) document.title = `${label} · ${loaded.data.name} · Payback`;
  }, [loaded.data, label]);
  return (
    <section class="page">
      <header class="page-head">
        <h1>
          {loaded.data?.name ?? slug}{' '}
          {loaded.data && <small class="muted">{loaded.data.stage}</small>}
        </h1>
        {actions && <div class="page-actions">{actions}</div>}
      </header>
      <nav aria-label="Product pages">
        <ul class="tabs">
          {productTabs.map((t) => (
            <li>
              <a href={href(`/p/${slug}${t.path}`)} aria-current={t.path === tab ? 'page' : undefined}>
                {t.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <Await loaded={loaded} what="Loading the product">
        {(product) => children(product, loaded.reload)}
      </Await>
    </section>
  );
}
