// Every product page sits in this frame: the product's name, its stage, and the tabs between
// its pages. The product row is loaded once here and handed to the page. While the service is
// still folding a backlog of the product's events (a burst, a backfill), a banner says how many
// the figures do not count yet.

import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, onPendingEvents } from '../api';
import { ChatPanel } from '../chat/chat-panel';
import { count } from '../format';
import { href } from '../router';
import type { ProductRow } from '../types';
import { Await } from './states';
import { useApi } from './use-api';

export const productTabs: { path: string; label: string }[] = [
  { path: '', label: 'Overview' },
  { path: '/dashboards', label: 'Dashboards' },
  { path: '/scorecard', label: 'Scorecard' },
  { path: '/health', label: 'Health' },
  { path: '/growth', label: 'Growth' },
  { path: '/attribution', label: 'Attribution' },
  { path: '/sales', label: 'Sales' },
  { path: '/ads', label: 'Ads' },
  { path: '/demand', label: 'Demand' },
  { path: '/social', label: 'Social' },
  { path: '/pages', label: 'Pages' },
  { path: '/recordings', label: 'Recordings' },
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
  const pending = usePendingEvents(slug);
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
      <div role="status" class="catching-up">
        {pending > 0 && (
          <p class="notice-warning">
            Catching up: {count(pending)} {pending === 1 ? 'event' : 'events'} pending. The figures here count
            the events folded so far.
          </p>
        )}
      </div>
      <Await loaded={loaded} what="Loading the product">
        {(product) => children(product, loaded.reload)}
      </Await>
      <ChatPanel slug={slug} section={label.toLowerCase()} />
    </section>
  );
}

/** How often the banner asks again while a backlog is being folded. */
const PENDING_POLL_MS = 5_000;

/**
 * The pending count the latest read of this product reported. While it is above 0 the product
 * row is read again now and then (each read reports the count anew), so the banner counts down
 * and goes once the fold has caught up.
 */
function usePendingEvents(slug: string): number {
  const [pending, setPending] = useState(0);
  useEffect(() => {
    setPending(0);
    return onPendingEvents((of, events) => {
      if (of === slug) setPending(events);
    });
  }, [slug]);
  useEffect(() => {
    if (pending === 0) return;
    const timer = setInterval(() => {
      // A failed poll changes nothing: the page shows its own errors.
      api.get(`/products/${encodeURIComponent(slug)}`).catch(() => undefined);
    }, PENDING_POLL_MS);
    return () => clearInterval(timer);
  }, [slug, pending > 0]);
  return pending;
}
