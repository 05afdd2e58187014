// The History page across the workspace, and the same list on a product's History tab.

import { useAccount } from '../../account';
import { isOwner } from '../../session';
import type { ProductRow } from '../../types';
import { Page } from '../../ui/page';
import { ProductFrame } from '../../ui/product-frame';
import { useApi } from '../../ui/use-api';
import { HistoryList } from './history-list';

export function HistoryPage({ query }: { query: URLSearchParams }) {
  const portfolio = useApi<ProductRow[]>('/portfolio');
  const { account } = useAccount();
  // The API shows an account's own events (team, keys, profile) to its owners only, with
  // `include=account`; operators see them anyway, so only tenant owners get the switch.
  const offerAccountEvents = isOwner(account) && account.role !== 'operator';
  return (
    <Page title="History">
      <p class="muted">
        {account.role === 'operator'
          ? 'Everything people, agents, jobs and the policy engine did in every account, sign-ins included.'
          : `What people, agents, jobs and the policy engine did to the products of this workspace${
              offerAccountEvents ? ', and, when you ask, to the account itself: team, API keys, profiles.' : '.'
            }`}
      </p>
      <HistoryList query={query} products={portfolio.data ?? []} offerAccountEvents={offerAccountEvents} />
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
