// Each funnel step's daily volume over the window. The API leaves out days without events, so
// the window's days are filled in here with zeros to keep the lines honest.

import { useMemo } from 'preact/hooks';
import { count } from '../../format';
import { LineChart } from '../../ui/chart';
import type { Series } from '../../ui/chart';
import type { FunnelSeriesRow, FunnelStep } from './types';
import { windowDays } from '../../ui/window-picker';

const COLORS = ['#0a7d57', '#1565c0', '#8e24aa', '#ef6c00', '#c62828', '#00838f', '#6d4c41', '#5e35b1', '#2e7d32', '#ad1457'];

export function FunnelChart({ steps, rows, days }: { steps: FunnelStep[]; rows: FunnelSeriesRow[]; days: number }) {
  // Memoised: the chart is rebuilt whenever these arrays change identity.
  const xs = useMemo(() => windowDays(days), [days]);
  const series = useMemo<Series[]>(() => {
    const position = new Map(xs.map((day, i) => [day, i]));
    return steps.map((step, i) => {
      const values: number[] = xs.map(() => 0);
      for (const row of rows) {
        const at = position.get(row.day);
        if (row.stage === step.stage && at !== undefined) values[at] = row.volume;
      }
      return { label: step.label, values, color: COLORS[i % COLORS.length] };
    });
  }, [xs, steps, rows]);
  return (
    <figure>
      <LineChart days={xs} series={series} format={formatCount} />
      <figcaption class="muted">
        People per step per UTC day; a person counts once a day, so days do not add up to the window.
      </figcaption>
    </figure>
  );
}

function formatCount(value: number): string {
  return count(value);
}
