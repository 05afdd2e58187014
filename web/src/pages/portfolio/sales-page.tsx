// The sales behind the attribution report: each revenue row of the window, newest first, with
// its first- and last-touch channels; narrowed to one first-touch channel from the report.

import { count, money, when } from '../../format';
import { setQuery } from '../../router';
import type { ProductRow } from '../../types';
import { ProductFrame } from '../../ui/product-frame';
import { Await, Empty } from '../../ui/states';
import type { Column } from '../../ui/table';
import { Table } from '../../ui/table';
import { useApi } from '../../ui/use-api';
import { channelLabel, UNATTRIBUTED } from '../../widgets/channels';
import type { AttributionReport, Sale, SalesList } from '../../widgets/report-types';
import './reports.css';
import { WindowPicker } from '../../ui/window-picker';

const PAGE = 100;
const MAX_LIMIT = 1000;

export function SalesPage({ slug, days, query }: { slug: string; days: number; query: URLSearchParams }) {
  const channel = query.get('channel') || null;
  const requested = Number(query.get('limit'));
  const limit = Number.isInteger(requested) && requested >= 1 ? Math.min(requested, MAX_LIMIT) : PAGE;
  return (
    <ProductFrame slug={slug} tab="/sales" actions={<WindowPicker days={days} />}>
      {(product) => <SalesBody product={product} days={days} channel={channel} limit={limit} />}
    </ProductFrame>
  );
}

function SalesBody({
  product,
  days,
  channel,
  limit,
}: {
  product: ProductRow;
  days: number;
  channel: string | null;
  limit: number;
}) {
  const slug = encodeURIComponent(product.slug);
  const params = new URLSearchParams({ days: String(days), limit: String(limit) });
  if (channel) params.set('channel', channel);
  const loaded = useApi<SalesList>(`/products/${slug}/attribution/sales?${params.toString()}`);
  // The report names the channels that have anything in this window, for the filter.
  const report = useApi<AttributionReport>(`/products/${slug}/attribution?days=${days}`);
  const channels = report.data?.channels.map((row) => row.channel) ?? [];
  if (channel && !channels.includes(channel)) channels.push(channel);

  return (
    <>
      <div class="report-controls">
        <div class="inline-select">
          <label for="sales-channel">First touch</label>
          <select
            id="sales-channel"
            name="channel"
            value={channel ?? ''}
            onChange={(event) => setQuery({ channel: (event.currentTarget as HTMLSelectElement).value, limit: null })}
          >
            <option value="">Every channel</option>
            {channels.map((name) => (
              <option value={name}>{channelLabel(name)}</option>
            ))}
          </select>
        </div>
      </div>
      <Await loaded={loaded} what="Loading sales">
        {(list) => <SalesTable list={list} product={product} channel={channel} limit={limit} />}
      </Await>
    </>
  );
}

function salesColumns(currency: string): Column<Sale>[] {
  return [
    { title: 'When', cell: (sale) => when(sale.occurred_at) },
    {
      title: 'Amount',
      numeric: true,
      cell: (sale) => (
        <span data-col="amount_cents" class={sale.amount_cents < 0 ? 'trend-down' : undefined}>
          {money(sale.amount_cents, sale.currency || currency)}
        </span>
      ),
    },
    { title: 'Kind', cell: (sale) => <span data-col="kind">{sale.kind}</span> },
    { title: 'Stage', cell: (sale) => sale.stage ?? '—' },
    {
      title: 'Identity',
      cell: (sale) =>
        sale.identity ? <code class="identity">{sale.identity}</code> : <span class="muted">no identity</span>,
    },
    { title: 'First touch', cell: (sale) => <ChannelName channel={sale.first_channel} col="first_channel" /> },
    { title: 'Last touch', cell: (sale) => <ChannelName channel={sale.last_channel} col="last_channel" /> },
  ];
}

function ChannelName({ channel, col }: { channel: string; col: string }) {
  return (
    <span data-col={col} data-channel={channel} class={channel === UNATTRIBUTED ? 'muted' : undefined}>
      {channelLabel(channel)}
    </span>
  );
}

function SalesTable({
  list,
  product,
  channel,
  limit,
}: {
  list: SalesList;
  product: ProductRow;
  channel: string | null;
  limit: number;
}) {
  const net = list.sales.reduce((sum, sale) => sum + sale.amount_cents, 0);
  if (list.total === 0) {
    return (
      <Empty title={`No sales in the last ${list.window_days} days${channel ? ` first touched by ${channelLabel(channel)}` : ''}`}>
        {channel ? 'Pick every channel or a longer window.' : 'Revenue appears once valued converted or payment events arrive.'}
      </Empty>
    );
  }
  const more = list.total > list.sales.length && limit < MAX_LIMIT;
  return (
    <>
      <p>
        <strong data-sales="total">{count(list.total)}</strong> sales in the last {list.window_days} days
        {channel && <> first touched by {channelLabel(channel)}</>}
        {list.sales.length < list.total ? <>; the newest {count(list.sales.length)} shown net </> : <>, net </>}
        <strong data-sales="net">{money(net, product.currency)}</strong>.
      </p>
      <Table columns={salesColumns(product.currency)} rows={list.sales} rowKey={(sale) => sale.id} />
      {more && (
        <button
          type="button"
          class="outline"
          onClick={() => setQuery({ limit: String(Math.min(MAX_LIMIT, limit + PAGE * 4)) })}
        >
          Show more
        </button>
      )}
    </>
  );
}
