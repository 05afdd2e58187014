// One measure of the attribution report split by channel: spend, or revenue by first or last
// touch. `unattributed` keeps its own bar; it is never spread over channels.

import { money, percent } from '../format';
import { href } from '../router';
import type { ProductRow } from '../types';
import { channelLabel, UNATTRIBUTED } from './channels';
import { useWidgetData } from './data';
import type { AttributionReport, ChannelRow } from './report-types';
import type { BreakdownMeasure, BreakdownWidget as BreakdownSpec } from './spec';
import { widgetDays } from './spec';
import { WidgetAwait } from './widget-state';

const MEASURES: Record<BreakdownMeasure, { label: string; read: (row: ChannelRow) => number }> = {
  spend: { label: 'Spend by channel', read: (row) => row.spend_cents },
  revenue_first: { label: 'Revenue by first touch', read: (row) => row.revenue_first_cents },
  revenue_last: { label: 'Revenue by last touch', read: (row) => row.revenue_last_cents },
};

export function breakdownTitle(widget: BreakdownSpec): string {
  return `${MEASURES[widget.measure].label}, ${widgetDays(widget.days)} days`;
}

export function BreakdownWidget({ widget, product }: { widget: BreakdownSpec; product: ProductRow }) {
  const days = widgetDays(widget.days);
  const loaded = useWidgetData<AttributionReport>(
    `/products/${encodeURIComponent(product.slug)}/attribution?days=${days}`,
  );
  return (
    <WidgetAwait loaded={loaded} what="Loading attribution">
      {(report) => (
        <Bars report={report} measure={widget.measure} currency={product.currency} slug={product.slug} days={days} />
      )}
    </WidgetAwait>
  );
}

function Bars({
  report,
  measure,
  currency,
  slug,
  days,
}: {
  report: AttributionReport;
  measure: BreakdownMeasure;
  currency: string;
  slug: string;
  days: number;
}) {
  const read = MEASURES[measure].read;
  const rows = report.channels
    .map((row) => ({ channel: row.channel, cents: read(row) }))
    .filter((row) => row.cents !== 0)
    .sort((a, b) => b.cents - a.cents);
  const total = rows.reduce((sum, row) => sum + row.cents, 0);
  const top = Math.max(1, ...rows.map((row) => row.cents));
  const link = href(`/p/${slug}/attribution?days=${days}`);
  if (rows.length === 0) {
    return (
      <p class="muted">
        No {measure === 'spend' ? 'spend' : 'revenue'} in the last {days} days. <a href={link}>Attribution</a>
      </p>
    );
  }
  return (
    <>
      <ul class="breakdown-bars">
        {rows.map((row) => (
          <li data-row={row.channel} class={row.channel === UNATTRIBUTED ? 'unattributed' : undefined}>
            <div class="bar-label">
              <span title={row.channel}>{channelLabel(row.channel)}</span>
              <span class="num">
                <strong data-col={measure}>{money(row.cents, currency)}</strong>
                {total > 0 && <span class="muted"> · {percent(row.cents / total)}</span>}
              </span>
            </div>
            <progress value={Math.max(0, row.cents)} max={top} aria-label={`${channelLabel(row.channel)}: ${money(row.cents, currency)}`} />
          </li>
        ))}
      </ul>
      <p class="widget-foot">
        <a href={link}>Attribution details →</a>
      </p>
    </>
  );
}
