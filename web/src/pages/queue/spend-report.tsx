// The spend report of one product: totals for the window, then the same rows summed by network,
// by campaign and by day. All sums are integer cents, formatted in the product's currency.

import { count, day, money } from '../../format';
import { Empty } from '../../ui/states';
import type { Column } from '../../ui/table';
import { Table } from '../../ui/table';
import type { SpendReport, SpendRow } from './types';
import { networkName } from './words';

interface Sum {
  key: string;
  label: string;
  spend_cents: number;
  impressions: number;
  clicks: number;
}

function sumBy(rows: SpendRow[], keyOf: (row: SpendRow) => string, labelOf: (row: SpendRow) => string): Sum[] {
  const sums = new Map<string, Sum>();
  for (const row of rows) {
    const key = keyOf(row);
    const sum = sums.get(key) ?? { key, label: labelOf(row), spend_cents: 0, impressions: 0, clicks: 0 };
    sum.spend_cents += row.spend_cents;
    sum.impressions += row.impressions;
    sum.clicks += row.clicks;
    sums.set(key, sum);
  }
  return [...sums.values()];
}

function campaignLabel(row: SpendRow): string {
  const campaign = row.campaign_name ?? row.campaign_id ?? 'Below campaign level';
  return `${networkName(row.network)} · ${campaign}`;
}

export function SpendReportView({ report }: { report: SpendReport }) {
  const { currency, rows } = report;
  if (rows.length === 0) {
    return (
      <Empty title={`No ad spend in the last ${report.window_days} days`}>
        <p>Spend arrives when an ad network (Google Ads, Meta Ads, LinkedIn Ads) is connected and synced. Try a longer window.</p>
      </Empty>
    );
  }
  const [total] = sumBy(rows, () => 'all', () => 'Total');
  const byNetwork = sumBy(rows, (row) => `${row.network}/${row.channel}`, (row) => `${networkName(row.network)} (${row.channel})`).sort(
    (a, b) => b.spend_cents - a.spend_cents,
  );
  const byCampaign = sumBy(rows, (row) => `${row.network}/${row.campaign_id ?? ''}`, campaignLabel).sort(
    (a, b) => b.spend_cents - a.spend_cents,
  );
  const byDay = sumBy(rows, (row) => row.day, (row) => day(row.day)).reverse();

  const columns = (title: string): Column<Sum>[] => [
    { title, cell: (sum) => sum.label },
    { title: 'Spend', cell: (sum) => money(sum.spend_cents, currency), numeric: true },
    { title: 'Impressions', cell: (sum) => count(sum.impressions), numeric: true },
    { title: 'Clicks', cell: (sum) => count(sum.clicks), numeric: true },
  ];
  const totalRow = (
    <tr>
      <th scope="row">Total</th>
      <td class="num" data-total="spend">{money(total.spend_cents, currency)}</td>
      <td class="num">{count(total.impressions)}</td>
      <td class="num">{count(total.clicks)}</td>
    </tr>
  );

  return (
    <>
      <div class="spend-totals">
        <article>
          <small class="muted">Spend, last {report.window_days} days</small>
          <div class="metric-value" data-metric="spend-total">{money(total.spend_cents, currency)}</div>
        </article>
        <article>
          <small class="muted">Impressions</small>
          <div class="metric-value">{count(total.impressions)}</div>
        </article>
        <article>
          <small class="muted">Clicks</small>
          <div class="metric-value">{count(total.clicks)}</div>
        </article>
      </div>
      <h3>By network</h3>
      <Table columns={columns('Network')} rows={byNetwork} rowKey={(sum) => sum.key} footer={totalRow} />
      <h3>By campaign</h3>
      <Table columns={columns('Campaign')} rows={byCampaign} rowKey={(sum) => sum.key} />
      <details>
        <summary>By day</summary>
        <Table columns={columns('Day')} rows={byDay} rowKey={(sum) => sum.key} footer={totalRow} />
      </details>
    </>
  );
}
