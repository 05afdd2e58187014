// The approval queue across products: every card waiting for a person, newest first, with the
// resolutions on each; then the latest approved cards with what applying their spend change came
// to (read again every few seconds while one is still being applied); then the snoozed and
// expired cards that can be restored.

import { useEffect, useMemo } from 'preact/hooks';
import { setQuery } from '../../router';
import type { Card, ProductRow } from '../../types';
import { Page } from '../../ui/page';
import { Await, Empty, ErrorNote, Loading } from '../../ui/states';
import { useApi } from '../../ui/use-api';
import { ApprovedList } from './approved-list';
import { QueueCard } from './queue-card';
import { SetAsideList } from './set-aside';
import type { ApprovedCard } from './types';

/** How many approved cards the page shows, the newest. */
const APPROVED_SHOWN = 20;
/** How often approved cards are read again while a change is still being applied. */
const APPLYING_POLL_MS = 5_000;

export function QueuePage({ query }: { query: URLSearchParams }) {
  const queue = useApi<Card[]>('/queue');
  const portfolio = useApi<ProductRow[]>('/portfolio');
  const snoozed = useApi<Card[]>('/queue?status=snoozed');
  const expired = useApi<Card[]>('/queue?status=expired');
  const approved = useApi<ApprovedCard[]>(`/queue?status=approved&limit=${APPROVED_SHOWN}`);
  const productFilter = query.get('product') ?? '';

  const products = useMemo(
    () => new Map((portfolio.data ?? []).map((product) => [product.slug, product])),
    [portfolio.data],
  );

  const reload = () => {
    queue.reload();
    snoozed.reload();
    expired.reload();
    approved.reload();
    // Pending counts on the portfolio rows move with the queue.
    portfolio.reload();
  };

  const applying = approved.data?.some((card) => card.execution?.state === 'applying') ?? false;
  useEffect(() => {
    // One timer per answer: the next read is scheduled once the previous one came back.
    if (!applying || approved.loading) return;
    const timer = window.setTimeout(approved.reload, APPLYING_POLL_MS);
    return () => window.clearTimeout(timer);
  }, [applying, approved.loading, approved.data, approved.reload]);

  const setAside = useMemo(() => [...(snoozed.data ?? []), ...(expired.data ?? [])], [snoozed.data, expired.data]);

  const filter = (
    <label class="inline-filter">
      Product
      <select value={productFilter} onChange={(event) => setQuery({ product: (event.currentTarget as HTMLSelectElement).value })}>
        <option value="">All products</option>
        {(portfolio.data ?? []).map((product) => (
          <option value={product.slug}>{product.name}</option>
        ))}
      </select>
    </label>
  );

  return (
    <Page title="Queue" actions={filter}>
      <ErrorNote error={portfolio.error} />
      <Await loaded={queue} what="Loading the queue">
        {(cards) => {
          // Budgets are shown in each product's currency, which the portfolio carries.
          if (portfolio.data === null && portfolio.error === null) return <Loading what="Loading the queue" />;
          const shown = productFilter ? cards.filter((card) => card.product_slug === productFilter) : cards;
          if (shown.length === 0) {
            return (
              <Empty title="Nothing waiting for you">
                <p>
                  When an AI agent proposes a spend change, or a job raises an alert or a gate review, the card lands
                  here. Nothing changes ad spend until a person approves it.
                  {productFilter && ' This list is filtered to one product; choose "All products" to see the rest.'}
                </p>
              </Empty>
            );
          }
          return (
            <div class="queue-list">
              <p class="muted">
                {shown.length} {shown.length === 1 ? 'card waits' : 'cards wait'} for a decision, newest first.
              </p>
              {shown.map((card) => (
                <QueueCard
                  key={card.id}
                  card={card}
                  product={card.product_slug ? products.get(card.product_slug) : undefined}
                  onResolved={reload}
                />
              ))}
            </div>
          );
        }}
      </Await>
      <ErrorNote error={approved.error} />
      {approved.data && (
        <ApprovedList
          cards={productFilter ? approved.data.filter((card) => card.product_slug === productFilter) : approved.data}
          products={products}
        />
      )}
      <ErrorNote error={snoozed.error ?? expired.error} />
      <SetAsideList
        cards={productFilter ? setAside.filter((card) => card.product_slug === productFilter) : setAside}
        products={products}
        onRestored={reload}
      />
    </Page>
  );
}
