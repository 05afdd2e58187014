// The window's days: search clicks and impressions, and the AI-visibility score as a further
// line when any day of the window has one.

import { useMemo } from 'preact/hooks';
import { count } from '../../format';
import { LineChart } from '../../ui/chart';
import type { Series } from '../../ui/chart';
import type { DemandDay } from './types';

export function DemandTrend({ trend }: { trend: DemandDay[] }) {
  // Memoised: the chart is rebuilt whenever these arrays change identity.
  const days = useMemo(() => trend.map((day) => day.day), [trend]);
  const series = useMemo<Series[]>(() => {
    const lines: Series[] = [
      { label: 'Search clicks', values: trend.map((day) => day.search_clicks), color: '#1565c0' },
      { label: 'Search impressions', values: trend.map((day) => day.search_impressions), color: '#0a7d57' },
    ];
    if (trend.some((day) => day.ai_visibility !== null)) {
      lines.push({ label: 'AI visibility', values: trend.map((day) => day.ai_visibility), color: '#8e24aa' });
    }
    return lines;
  }, [trend]);
  return (
    <figure data-series={series.map((line) => line.label).join(',')}>
      <LineChart days={days} series={series} format={count} />
      <figcaption class="muted">
        Per UTC day, every search source together; AI visibility is the day's 0-100 score where one was measured.
      </figcaption>
    </figure>
  );
}
