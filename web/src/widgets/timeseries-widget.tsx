// One daily series over the widget's window, drawn with uPlot. Money series are plotted in
// units (cents / 100) and labelled in the product's currency.

import { useMemo } from 'preact/hooks';
import { count, money } from '../format';
import type { ProductRow } from '../types';
import { LineChart } from '../ui/chart';
import type { Series } from '../ui/chart';
import { useWidgetData } from './data';
import type { TimeseriesRow } from './report-types';
import type { SeriesName, TimeseriesWidget as TimeseriesSpec } from './spec';
import { widgetDays } from './spec';
import { WidgetAwait } from './widget-state';

interface SeriesInfo {
  label: string;
  color: string;
  money: boolean;
  /** Days sum to the window (money, customers acquired); visits and leads are per-day distinct. */
  sums: boolean;
  read: (row: TimeseriesRow) => number;
}

export const SERIES: Record<SeriesName, SeriesInfo> = {
  spend: { label: 'Spend', color: '#b3261e', money: true, sums: true, read: (r) => r.spend_cents },
  revenue: { label: 'Revenue', color: '#0a7d57', money: true, sums: true, read: (r) => r.revenue_cents },
  visits: { label: 'Visits', color: '#1f6feb', money: false, sums: false, read: (r) => r.visits },
  leads: { label: 'Leads', color: '#8250df', money: false, sums: false, read: (r) => r.leads },
  customers: { label: 'Customers', color: '#bf8700', money: false, sums: true, read: (r) => r.customers },
};

export function timeseriesTitle(widget: TimeseriesSpec): string {
  return `${SERIES[widget.series].label}, ${widgetDays(widget.days)} days`;
}

export function TimeseriesWidget({ widget, product }: { widget: TimeseriesSpec; product: ProductRow }) {
  const days = widgetDays(widget.days);
  const loaded = useWidgetData<TimeseriesRow[]>(
    `/products/${encodeURIComponent(product.slug)}/timeseries?days=${days}`,
  );
  return (
    <WidgetAwait loaded={loaded} what="Loading the series">
      {(rows) => <SeriesChart rows={rows} name={widget.series} currency={product.currency} />}
    </WidgetAwait>
  );
}

function SeriesChart({ rows, name, currency }: { rows: TimeseriesRow[]; name: SeriesName; currency: string }) {
  const info = SERIES[name];
  // Stable inputs so the chart is drawn once per answer, not on every render.
  const { days, series, total } = useMemo(() => {
    const values = rows.map(info.read);
    const plotted: Series[] = [
      { label: info.label, color: info.color, values: info.money ? values.map((cents) => cents / 100) : values },
    ];
    return {
      days: rows.map((row) => row.day),
      series: plotted,
      total: values.reduce((sum, value) => sum + value, 0),
    };
  }, [rows, info]);
  const format = useMemo(
    () => (info.money ? (units: number) => money(Math.round(units * 100), currency) : (value: number) => count(value)),
    [info, currency],
  );
  const totalText = info.money ? money(total, currency) : count(total);
  return (
    <>
      {info.sums && (
        <p class="widget-foot">
          <strong data-series-total={name}>{totalText}</strong> <span class="muted">in the window</span>
        </p>
      )}
      <LineChart days={days} series={series} height={180} format={format} />
    </>
  );
}
