// Attribution: per channel, spend, customers and revenue by first and last touch, with CAC and
// ROAS; `unattributed` as its own row, never spread over channels; how complete the inputs are
// (coverage); and the primary goal's count in the window.

import { count, money, moneyOr, ratio } from '../../format';
import { href } from '../../router';
import type { ProductRow } from '../../types';
import { ProductFrame } from '../../ui/product-frame';
import { Await } from '../../ui/states';
import type { Column } from '../../ui/table';
import { Table } from '../../ui/table';
import { useApi } from '../../ui/use-api';
import { channelLabel, UNATTRIBUTED } from '../../widgets/channels';
import type { AttributionReport, ChannelRow } from '../../widgets/report-types';
import { CoveragePanel } from './coverage-panel';
import './reports.css';
import { WindowPicker } from '../../ui/window-picker';

export function AttributionPage({ slug, days }: { slug: string; days: number }) {
  return (
    <ProductFrame slug={slug} tab="/attribution" actions={<WindowPicker days={days} />}>
      {(product) => <AttributionBody product={product} days={days} />}
    </ProductFrame>
  );
}

function AttributionBody({ product, days }: { product: ProductRow; days: number }) {
  const loaded = useApi<AttributionReport>(`/products/${encodeURIComponent(product.slug)}/attribution?days=${days}`);
  return (
    <Await loaded={loaded} what="Loading attribution">
      {(report) => (
        <>
          <ChannelsTable report={report} product={product} />
          <div class="grid report-panels">
            <CoveragePanel report={report} currency={product.currency} />
            <PrimaryGoal report={report} product={product} />
          </div>
        </>
      )}
    </Await>
  );
}

function channelColumns(product: ProductRow, days: number): Column<ChannelRow>[] {
  const currency = product.currency;
  const salesLink = (channel: string) =>
    href(`/p/${product.slug}/sales?channel=${encodeURIComponent(channel)}${days === 30 ? '' : `&days=${days}`}`);
  return [
    {
      title: 'Channel',
      cell: (row) => (
        <a href={salesLink(row.channel)} title={`Sales whose first touch is ${row.channel}`} data-col="channel">
          {channelLabel(row.channel)}
          {row.channel === UNATTRIBUTED && <sup aria-hidden="true">*</sup>}
        </a>
      ),
    },
    {
      title: 'Spend',
      numeric: true,
      cell: (row) => <span data-col="spend_cents">{money(row.spend_cents, currency)}</span>,
    },
    {
      title: 'Customers',
      numeric: true,
      cell: (row) => <span data-col="customers_first">{count(row.customers_first)}</span>,
    },
    {
      title: 'Revenue, first touch',
      numeric: true,
      cell: (row) => <span data-col="revenue_first_cents">{money(row.revenue_first_cents, currency)}</span>,
    },
    {
      title: 'Revenue, last touch',
      numeric: true,
      cell: (row) => <span data-col="revenue_last_cents">{money(row.revenue_last_cents, currency)}</span>,
    },
    {
      title: 'Sales',
      numeric: true,
      cell: (row) => <span data-col="transactions_first">{count(row.transactions_first)}</span>,
    },
    {
      title: 'ROAS',
      numeric: true,
      cell: (row) => <span data-col="roas">{ratio(row.roas)}</span>,
    },
    {
      title: 'CAC',
      numeric: true,
      cell: (row) => <span data-col="cac_cents">{cacText(row, currency)}</span>,
    },
  ];
}

function cacText(row: ChannelRow, currency: string): string {
  if (row.cac_cents !== null) return money(row.cac_cents, currency);
  // Unattributed never has spend of its own, so a CAC would mean nothing there.
  if (row.channel === UNATTRIBUTED) return '—';
  return 'no customers';
}

/** The report's order, with `unattributed` moved below the channels: it is not one of them. */
function channelsLast(rows: ChannelRow[]): ChannelRow[] {
  return [...rows.filter((row) => row.channel !== UNATTRIBUTED), ...rows.filter((row) => row.channel === UNATTRIBUTED)];
}

function ChannelsTable({ report, product }: { report: AttributionReport; product: ProductRow }) {
  const currency = product.currency;
  const { totals } = report;
  const customers = report.channels.reduce((sum, row) => sum + row.customers_first, 0);
  const sales = report.channels.reduce((sum, row) => sum + row.transactions_first, 0);
  const lastTouch = report.channels.reduce((sum, row) => sum + row.revenue_last_cents, 0);
  // Blended over every customer, unattributed ones included, as the product row's CAC is.
  const blendedCac = customers > 0 ? Math.round(totals.spend_cents / customers) : null;
  const blendedRoas = totals.spend_cents > 0 ? totals.revenue_cents / totals.spend_cents : null;
  const footer = (
    <tr data-row="totals">
      <th scope="row">Total</th>
      <td class="num">
        <span data-col="spend_cents">{money(totals.spend_cents, currency)}</span>
      </td>
      <td class="num">
        <span data-col="customers_first">{count(customers)}</span>
      </td>
      <td class="num">
        <span data-col="revenue_first_cents">{money(totals.revenue_cents, currency)}</span>
      </td>
      <td class="num">
        <span data-col="revenue_last_cents">{money(lastTouch, currency)}</span>
      </td>
      <td class="num">
        <span data-col="transactions_first">{count(sales)}</span>
      </td>
      <td class="num" title="All revenue over all spend">
        <span data-col="roas">{ratio(blendedRoas)}</span>
      </td>
      <td class="num" title="All spend over all customers">
        <span data-col="cac_cents">{moneyOr(blendedCac, currency, 'no customers')}</span>
      </td>
    </tr>
  );
  return (
    <section aria-labelledby="channels-heading" class="attribution-table">
      <h2 id="channels-heading" class="section-title">
        Channels, last {report.window_days} days
      </h2>
      <Table
        columns={channelColumns(product, report.window_days)}
        rows={channelsLast(report.channels)}
        rowKey={(row) => row.channel}
        footer={footer}
      />
      <p class="footnote muted">
        <sup>*</sup> <strong>Unattributed</strong> is revenue with no identity, or whose identity never had a
        channel, and customers without a channel. It is never spread over the channels above and has no spend,
        so it has no CAC or ROAS. Revenue total = attributed by first touch{' '}
        <span data-total="attributed_first_cents">{money(totals.attributed_first_cents, currency)}</span> +
        unattributed <span data-total="unattributed_cents">{money(totals.unattributed_cents, currency)}</span>.
        Totals' ROAS and CAC are blended: all revenue over all spend, all spend over all customers.
      </p>
      {report.channels.length === 1 && totals.revenue_cents === 0 && (
        <p class="muted">
          No revenue or spend in this window yet. Send events from your site or server:{' '}
          <a href={href(`/p/${product.slug}/tracking`)}>Tracking</a>.
        </p>
      )}
    </section>
  );
}

function PrimaryGoal({ report, product }: { report: AttributionReport; product: ProductRow }) {
  const goal = report.primary_goal;
  return (
    <article class="primary-goal" aria-labelledby="goal-heading">
      <h2 id="goal-heading" class="section-title">
        Primary goal
      </h2>
      {goal ? (
        <>
          <p>
            <strong>{goal.label}</strong> <small class="muted">({goal.stage})</small>
          </p>
          <p class="metric-value" data-goal="count">
            {count(goal.count)}
          </p>
          <p class="muted">
            in the last {report.window_days} days, worth{' '}
            <span data-goal="value_cents">{money(goal.value_cents, product.currency)}</span>
          </p>
        </>
      ) : (
        <p class="muted">
          No primary goal yet. Mark the conversion that makes you money as primary on{' '}
          <a href={href(`/p/${product.slug}/conversions`)}>Conversions</a>.
        </p>
      )}
    </article>
  );
}

