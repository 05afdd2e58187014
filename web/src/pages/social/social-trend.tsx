// The window's days, every network together: impressions, engagement and followers.

import { useMemo } from 'preact/hooks';
import { count } from '../../format';
import { LineChart } from '../../ui/chart';
import type { Series } from '../../ui/chart';
import type { SocialDay } from './types';

export function SocialTrend({ trend }: { trend: SocialDay[] }) {
  // Memoised: the chart is rebuilt whenever these arrays change identity.
  const days = useMemo(() => trend.map((day) => day.day), [trend]);
  const series = useMemo<Series[]>(
    () => [
      { label: 'Impressions', values: trend.map((day) => day.impressions), color: '#0a7d57' },
      { label: 'Engagement', values: trend.map((day) => day.engagement), color: '#1565c0' },
      { label: 'Followers', values: trend.map((day) => day.followers), color: '#8e24aa' },
    ],
    [trend],
  );
  return (
    <figure data-series={series.map((line) => line.label).join(',')}>
      <LineChart days={days} series={series} format={count} />
      <figcaption class="muted">
        Per UTC day over every network; followers are the latest count read on or before each day.
      </figcaption>
    </figure>
  );
}
