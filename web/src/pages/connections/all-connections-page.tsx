// `#/connections`: every connection of the workspace in one table, to spot a failing or stale
// source across products; each row leads to its product's Connections page.

import { when } from '../../format';
import { href } from '../../router';
import { Page } from '../../ui/page';
import { Await, Empty } from '../../ui/states';
import { Table } from '../../ui/table';
import type { Column } from '../../ui/table';
import { useMemo } from 'preact/hooks';
import type { ProductRow } from '../../types';
import { useApi } from '../../ui/use-api';
import type { Connection } from './types';
import { useConnections } from './use-connections';
import { backfillWords, kindName, STATUS_WORDS, syncingWords } from './words';
import './connections.css';

/** `names` maps slugs to product names; a product missing from it shows its slug. */
const columnsFor = (names: Map<string, string>): Column<Connection>[] => [
  {
    title: 'Product',
    cell: (c) => <a href={href(`/p/${c.product_slug}/connections`)}>{names.get(c.product_slug) ?? c.product_slug}</a>,
  },
  { title: 'Source', cell: (c) => kindName(c.kind) },
  {
    title: 'Status',
    cell: (c) => (
      <span class={`badge connection-status connection-status-${c.status}`}>{STATUS_WORDS[c.status] ?? c.status}</span>
    ),
  },
  { title: 'Last sync', cell: (c) => when(c.last_sync_at, 'never') },
  { title: 'History', cell: (c) => backfillWords(c.backfill_days).replace('history read: ', '') },
  { title: 'Now', cell: (c) => syncingWords(c) },
  { title: 'Last error', cell: (c) => (c.last_error ? <span class="error-note connection-error">{c.last_error}</span> : '—') },
];

export function AllConnectionsPage() {
  const connections = useConnections();
  // Names only: the table still shows (with slugs) when the portfolio cannot be read.
  const portfolio = useApi<ProductRow[]>('/portfolio');
  const names = useMemo(() => new Map((portfolio.data ?? []).map((p) => [p.slug, p.name])), [portfolio.data]);
  return (
    <Page title="Connections">
      <p class="muted">
        Every source feeding your products. Open a product's row to test, sync, replace a key or disconnect.
      </p>
      <Await loaded={connections} what="Loading the connections">
        {(rows) =>
          rows.length === 0 ? (
            <Empty title="No connections yet">
              Open a product from the <a href={href('/')}>portfolio</a> and choose its Connections tab to connect Stripe, Google Ads, Meta, LinkedIn or your own database.
            </Empty>
          ) : (
            <div class="connections-table">
              <Table columns={columnsFor(names)} rows={rows} rowKey={(c) => c.id} />
            </div>
          )
        }
      </Await>
    </Page>
  );
}
