// Ads: spend, clicks, revenue, customers, CAC and ROAS per campaign, ad group, keyword or ad.
// Revenue joins through the identity's last paid touch; what has no paid touch, or nothing at
// this grain, stays in the two sentinel rows instead of being guessed onto an ad.

import { count, money, moneyOr, percent, ratio } from '../../format';
import { setQuery } from '../../router';
import type { ProductRow } from '../../types';
import { ProductFrame } from '../../ui/product-frame';
import { Await } from '../../ui/states';
import type { Column } from '../../ui/table';
import { Table } from '../../ui/table';
import { useApi } from '../../ui/use-api';
import { channelLabel } from '../../widgets/channels';
import type { AdLevel, AdRow, AdsReport } from '../../widgets/report-types';
import './reports.css';
import { WindowPicker } from '../../ui/window-picker';

const LEVELS: { level: AdLevel; label: string; noun: string }[] = [
  { level: 'campaign', label: 'Campaigns', noun: 'campaign' },
  { level: 'ad_group', label: 'Ad groups', noun: 'ad group' },
  { level: 'keyword', label: 'Keywords', noun: 'keyword' },
  { level: 'ad', label: 'Ads', noun: 'ad' },
];

const SENTINELS = new Set(['unattributed', 'no_dimension']);

export function levelFrom(query: URLSearchParams): AdLevel {
  const level = query.get('level');
  return LEVELS.find((l) => l.level === level)?.level ?? 'campaign';
}

function isSentinel(row: AdRow): boolean {
  return row.channel === null && SENTINELS.has(row.id);
}

function rowLabel(row: AdRow, noun: string): string {
  if (isSentinel(row)) {
    return row.id === 'unattributed' ? 'No paid touch (unattributed)' : `No ${noun} named (no_dimension)`;
  }
  return row.name || row.id;
}

export function AdsPage({ slug, days, level }: { slug: string; days: number; level: AdLevel }) {
  return (
    <ProductFrame
      slug={slug}
      tab="/ads"
      actions={
        <>
          <LevelPicker level={level} />
          <WindowPicker days={days} />
        </>
      }
    >
      {(product) => <AdsBody product={product} days={days} level={level} />}
    </ProductFrame>
  );
}

function LevelPicker({ level }: { level: AdLevel }) {
  return (
    <div class="inline-select">
      <label for="ads-level">Level</label>
      <select
        id="ads-level"
        name="level"
        value={level}
        onChange={(event) => {
          const value = (event.currentTarget as HTMLSelectElement).value;
          setQuery({ level: value === 'campaign' ? null : value });
        }}
      >
        {LEVELS.map((l) => (
          <option value={l.level}>{l.label}</option>
        ))}
      </select>
    </div>
  );
}

function AdsBody({ product, days, level }: { product: ProductRow; days: number; level: AdLevel }) {
  const loaded = useApi<AdsReport>(
    `/products/${encodeURIComponent(product.slug)}/attribution/ads?days=${days}&level=${level}`,
  );
  return (
    <Await loaded={loaded} what="Loading the ads report">
      {(report) => <AdsTable report={report} currency={product.currency} />}
    </Await>
  );
}

function adColumns(currency: string, noun: string): Column<AdRow>[] {
  return [
    {
      title: noun[0].toUpperCase() + noun.slice(1),
      cell: (row) => (
        <span data-col="name" title={isSentinel(row) ? undefined : `id ${row.id}`}>
          {rowLabel(row, noun)}
        </span>
      ),
    },
    { title: 'Network', cell: (row) => (row.channel ? channelLabel(row.channel) : <span class="muted">—</span>) },
    { title: 'Spend', numeric: true, cell: (row) => <span data-col="spend_cents">{money(row.spend_cents, currency)}</span> },
    { title: 'Impressions', numeric: true, cell: (row) => <span data-col="impressions">{count(row.impressions)}</span> },
    { title: 'Clicks', numeric: true, cell: (row) => <span data-col="clicks">{count(row.clicks)}</span> },
    {
      title: 'Revenue',
      numeric: true,
      cell: (row) => <span data-col="revenue_cents">{money(row.revenue_cents, currency)}</span>,
    },
    { title: 'Customers', numeric: true, cell: (row) => <span data-col="customers">{count(row.customers)}</span> },
    {
      title: 'CAC',
      numeric: true,
      cell: (row) => (
        <span data-col="cac_cents">{moneyOr(row.cac_cents, currency, row.spend_cents > 0 ? 'no customers' : '—')}</span>
      ),
    },
    { title: 'ROAS', numeric: true, cell: (row) => <span data-col="roas">{ratio(row.roas)}</span> },
  ];
}

function AdsTable({ report, currency }: { report: AdsReport; currency: string }) {
  const noun = LEVELS.find((l) => l.level === report.level)?.noun ?? report.level;
  const { totals, coverage } = report;
  const footer = (
    <tr data-row="totals">
      <th scope="row" colSpan={2}>
        Total
      </th>
      <td class="num">
        <span data-col="spend_cents">{money(totals.spend_cents, currency)}</span>
      </td>
      <td class="num">{count(report.rows.reduce((sum, row) => sum + row.impressions, 0))}</td>
      <td class="num">{count(report.rows.reduce((sum, row) => sum + row.clicks, 0))}</td>
      <td class="num">
        <span data-col="revenue_cents">{money(totals.revenue_cents, currency)}</span>
      </td>
      <td class="num">{count(report.rows.reduce((sum, row) => sum + row.customers, 0))}</td>
      <td class="num" />
      <td class="num" />
    </tr>
  );
  return (
    <section class="ads-table" aria-labelledby="ads-heading">
      <h2 id="ads-heading" class="section-title">
        By {noun}, last {report.window_days} days
      </h2>
      <p>
        <span data-ads="attributed">{money(totals.attributed_cents, currency)}</span> of revenue follows a paid
        click; <span data-ads="unattributed">{money(totals.unattributed_cents, currency)}</span> has no paid touch.{' '}
        {count(coverage.transactions_with_paid_touch)} of {count(coverage.transactions_total)} sales (
        {coverage.transactions_total > 0 ? percent(coverage.transactions_with_paid_touch / coverage.transactions_total) : '—'})
        had a paid touch.
      </p>
      <Table
        columns={adColumns(currency, noun)}
        rows={report.rows}
        rowKey={(row) => (row.channel ? `${row.channel}:${row.id}` : row.id)}
        footer={footer}
      />
      <p class="footnote muted">
        Revenue and customers join through the last paid click before them. <strong>No {noun} named</strong> holds
        spend with no id at this level and paid clicks whose link carried no {noun} tag;{' '}
        <strong>No paid touch</strong> holds revenue no paid click led to, so it has no CAC or ROAS. Spend arrives
        from connected ad networks.
      </p>
    </section>
  );
}
