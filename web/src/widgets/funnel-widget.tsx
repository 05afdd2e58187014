// The product's funnel steps (its saved definition, else the built-in ladder) with the window's
// volume at each, summed over channels, and the step-to-step conversion.

import { count, percent } from '../format';
import { href } from '../router';
import type { ProductRow } from '../types';
import { Empty } from '../ui/states';
import { useWidgetData } from './data';
import type { FunnelDefinition, FunnelRow } from './report-types';
import type { FunnelWidget as FunnelSpec } from './spec';
import { widgetDays } from './spec';
import { WidgetAwait } from './widget-state';

export function funnelTitle(widget: FunnelSpec): string {
  return `Funnel, ${widgetDays(widget.days)} days`;
}

export function FunnelWidget({ widget, product }: { widget: FunnelSpec; product: ProductRow }) {
  const slug = encodeURIComponent(product.slug);
  const definition = useWidgetData<FunnelDefinition>(`/products/${slug}/funnel/definition`);
  const rows = useWidgetData<FunnelRow[]>(`/products/${slug}/funnel?days=${widgetDays(widget.days)}`);
  return (
    <WidgetAwait loaded={definition} what="Loading the funnel">
      {(def) => (
        <WidgetAwait loaded={rows} what="Loading the funnel">
          {(report) => <FunnelBars steps={def.steps} rows={report} slug={product.slug} />}
        </WidgetAwait>
      )}
    </WidgetAwait>
  );
}

function FunnelBars({ steps, rows, slug }: { steps: FunnelDefinition['steps']; rows: FunnelRow[]; slug: string }) {
  const volumes = new Map<string, number>();
  for (const row of rows) volumes.set(row.stage, (volumes.get(row.stage) ?? 0) + row.volume);
  const top = Math.max(1, ...steps.map((step) => volumes.get(step.stage) ?? 0));
  if (rows.length === 0) {
    return (
      <Empty title="No funnel events in this window">
        Send events or connect a source: <a href={href(`/p/${slug}/tracking`)}>Tracking</a>.
      </Empty>
    );
  }
  return (
    <ol class="funnel-bars">
      {steps.map((step, index) => {
        const volume = volumes.get(step.stage) ?? 0;
        const previous = index > 0 ? volumes.get(steps[index - 1].stage) ?? 0 : null;
        return (
          <li data-stage={step.stage}>
            <div class="bar-label">
              <span>{step.label}</span>
              <span class="num">
                <strong data-col="volume">{count(volume)}</strong>
                {previous !== null && (
                  <span class="muted"> · {previous > 0 ? percent(volume / previous) : '—'} of previous</span>
                )}
              </span>
            </div>
            <progress value={volume} max={top} aria-label={`${step.label}: ${count(volume)}`} />
          </li>
        );
      })}
    </ol>
  );
}
