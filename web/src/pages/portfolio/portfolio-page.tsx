// The portfolio: one row per product with its 30-day money, unit economics, funnel counts and
// what waits in the queue, each product in its own currency; and the form to add a product.

import { ChatPanel } from '../../chat/chat-panel';
import { count, day, money, moneyOr, ratio, trend } from '../../format';
import { href } from '../../router';
import type { ProductRow } from '../../types';
import { Page } from '../../ui/page';
import { Await, Empty } from '../../ui/states';
import type { Column } from '../../ui/table';
import { Table } from '../../ui/table';
import { useApi } from '../../ui/use-api';
import { CreateProductForm } from './create-product-form';
import './reports.css';

export function PortfolioPage() {
  const loaded = useApi<ProductRow[]>('/portfolio');
  return (
    <Page title="Portfolio">
      <Await loaded={loaded} what="Loading your products">
        {(rows) =>
          rows.length === 0 ? (
            <>
              <Empty title="No products yet — create your first product">
                A product is one thing you sell: its spend, funnel and revenue are joined here.
              </Empty>
              <section aria-labelledby="new-product-heading">
                <h2 id="new-product-heading">New product</h2>
                <CreateProductForm />
              </section>
            </>
          ) : (
            <>
              <PortfolioTable rows={rows} />
              <details class="new-product">
                <summary role="button" class="outline">
                  New product
                </summary>
                <CreateProductForm />
              </details>
            </>
          )
        }
      </Await>
      <ChatPanel slug={null} section="portfolio" />
    </Page>
  );
}

function Trend({ current, previous, field }: { current: number; previous: number; field: string }) {
  const change = trend(current, previous);
  return (
    <small class={`trend-${change.direction}`} data-trend={field} title="Against the previous 30 days">
      {change.text}
    </small>
  );
}

function StageCell({ row }: { row: ProductRow }) {
  return (
    <span data-col="stage">
      {row.stage}
      {row.gate_result && (
        <>
          <br />
          <small class={`gate gate-${row.gate_result}`}>gate: {row.gate_result}</small>
        </>
      )}
      {!row.gate_result && row.gate_due_date && (
        <>
          <br />
          <small class="muted">gate due {day(row.gate_due_date)}</small>
        </>
      )}
    </span>
  );
}

const columns: Column<ProductRow>[] = [
  {
    title: 'Product',
    cell: (row) => (
      <>
        <a href={href(`/p/${row.slug}`)} data-col="name">
          {row.name}
        </a>
        <br />
        <small class="muted">{row.domain || row.slug}</small>
      </>
    ),
  },
  { title: 'Stage', cell: (row) => <StageCell row={row} /> },
  {
    title: 'Spend 30d',
    numeric: true,
    cell: (row) => (
      <>
        <span data-col="spend_30d_cents">{money(row.spend_30d_cents, row.currency)}</span>
        <br />
        <Trend current={row.spend_30d_cents} previous={row.spend_prev_30d_cents} field="spend" />
      </>
    ),
  },
  {
    title: 'Revenue 30d',
    numeric: true,
    cell: (row) => (
      <>
        <span data-col="revenue_30d_cents">{money(row.revenue_30d_cents, row.currency)}</span>
        <br />
        <Trend current={row.revenue_30d_cents} previous={row.revenue_prev_30d_cents} field="revenue" />
      </>
    ),
  },
  {
    title: 'CAC',
    numeric: true,
    cell: (row) => <span data-col="cac_cents">{moneyOr(row.cac_cents, row.currency, 'no customers')}</span>,
  },
  {
    title: 'LTV',
    numeric: true,
    cell: (row) => <span data-col="ltv_cents">{moneyOr(row.ltv_cents, row.currency, '—')}</span>,
  },
  { title: 'LTV:CAC', numeric: true, cell: (row) => <span data-col="ltv_cac">{ratio(row.ltv_cac)}</span> },
  {
    title: 'Pending',
    numeric: true,
    cell: (row) =>
      row.pending_cards > 0 ? (
        <a href={href('/queue')} data-col="pending_cards" title="Cards waiting for a decision">
          {count(row.pending_cards)}
        </a>
      ) : (
        <span data-col="pending_cards" class="muted">
          0
        </span>
      ),
  },
  { title: 'Visits', numeric: true, cell: (row) => <span data-col="visits_30d">{count(row.visits_30d)}</span> },
  { title: 'Leads', numeric: true, cell: (row) => <span data-col="leads_30d">{count(row.leads_30d)}</span> },
  {
    title: 'Customers',
    numeric: true,
    cell: (row) => <span data-col="customers_30d">{count(row.customers_30d)}</span>,
  },
];

function PortfolioTable({ rows }: { rows: ProductRow[] }) {
  return (
    <Table
      columns={columns}
      rows={rows}
      rowKey={(row) => row.slug}
      caption="Last 30 days, each product in its own currency; changes against the 30 days before."
    />
  );
}
