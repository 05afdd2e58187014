// The History page across the workspace, and the same list on a product's History tab.

import type { ProductRow } from '../../types';
import { Page } from '../../ui/page';
import { ProductFrame } from '../../ui/product-frame';
import { useApi } from '../../ui/use-api';
import { HistoryList } from './history-list';

export function HistoryPage({ query }: { query: URLSearchParams }) {
  const portfolio = useApi<ProductRow[]>('/portfolio');
  return (
    <Page title="History">
      <p class="muted">Everything people, agents, jobs and the policy engine did in this workspace.</p>
      <HistoryList query={query} products={portfolio.data ?? []} />
    </Page>
  );
}

export function ProductHistoryPage({ slug, query }: { slug: string; query: URLSearchParams }) {
  return (
    <ProductFrame slug={slug} tab="/history">
      {(product) => <HistoryList query={query} product={product.slug} />}
    </ProductFrame>
  );
}
