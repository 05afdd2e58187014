// One number from the product row, with its change against the previous window when known.

import type { ProductRow } from '../types';
import { readMetric } from './metrics';
import type { MetricWidget as MetricSpec } from './spec';

export function MetricWidget({ widget, product }: { widget: MetricSpec; product: ProductRow }) {
  const reading = readMetric(widget.metric, product);
  return (
    <>
      <p class="metric-value" data-metric={widget.metric}>
        {reading.value}
      </p>
      {(reading.change || reading.hint) && (
        <p class="widget-foot muted">
          {reading.change && (
            <span class={`trend-${reading.change.direction}`} data-trend={widget.metric}>
              {reading.change.text}
            </span>
          )}{' '}
          {reading.hint}
        </p>
      )}
    </>
  );
}

/** The heading a metric widget gets when its spec gives none. */
export function metricTitle(widget: MetricSpec, product: ProductRow): string {
  return readMetric(widget.metric, product).label;
}
