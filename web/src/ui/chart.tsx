// Time series with uPlot: small, fast, canvas-drawn. Days arrive as `YYYY-MM-DD`; values are
// plotted as given (callers pass money already divided into units).

import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface Series {
  label: string;
  values: (number | null)[];
  color: string;
}

export function LineChart({
  days,
  series,
  height = 220,
  format = (value: number) => String(value),
}: {
  days: string[];
  series: Series[];
  height?: number;
  format?: (value: number) => string;
}) {
  const host = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const xs = days.map((value) => Date.parse(`${value}T00:00:00Z`) / 1000);
    const options: uPlot.Options = {
      width: element.clientWidth || 600,
      height,
      legend: { live: false },
      axes: [{}, { values: (_u, ticks) => ticks.map(format), size: 70 }],
      series: [{}, ...series.map((s) => ({ label: s.label, stroke: s.color, width: 2 }))],
    };
    const plot = new uPlot(options, [xs, ...series.map((s) => s.values)], element);
    const resize = new ResizeObserver(() => plot.setSize({ width: element.clientWidth, height }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [days, series, height, format]);

  return <div ref={host} class="chart" role="img" aria-label={series.map((s) => s.label).join(', ')} />;
}
