// The widget renderer: draws a DashboardSpec for one product on the 12-column grid. The
// built-in Overview and stored dashboards both come through here.

import type { ComponentChildren } from 'preact';
import type { ProductRow } from '../types';
import { Empty } from '../ui/states';
import { BreakdownWidget, breakdownTitle } from './breakdown-widget';
import { WidgetDataProvider } from './data';
import { FunnelWidget, funnelTitle } from './funnel-widget';
import { MetricWidget, metricTitle } from './metric-widget';
import { NoteWidget } from './note-widget';
import { PaybackWidget } from './payback-widget';
import { planGrid, ROW_PX } from './placement';
import { QueueWidget } from './queue-widget';
import type { DashboardSpec, Widget } from './spec';
import { TimeseriesWidget, timeseriesTitle } from './timeseries-widget';
import './widgets.css';

export function WidgetGrid({
  spec,
  product,
  generation,
}: {
  spec: DashboardSpec;
  product: ProductRow;
  /** Change it to fetch every widget's data again. */
  generation?: unknown;
}) {
  if (spec.widgets.length === 0) {
    return <Empty title="This dashboard has no widgets yet">Add a widget to see numbers here.</Empty>;
  }
  const plan = planGrid(spec.widgets);
  return (
    <WidgetDataProvider generation={`${product.slug}:${String(generation ?? '')}`}>
      <div
        class={`widget-grid${plan.fixedRows ? ' fixed-rows' : ''}`}
        style={plan.fixedRows ? { gridAutoRows: `${ROW_PX}px` } : undefined}
      >
        {spec.widgets.map((widget, index) => (
          <article
            key={widget.id}
            class={`widget widget-${widget.type}`}
            data-widget={widget.id}
            data-widget-type={widget.type}
            style={plan.placements[index].style}
          >
            <h2 class="widget-title">{widget.title || defaultTitle(widget, product)}</h2>
            <WidgetBody widget={widget} product={product} />
          </article>
        ))}
      </div>
    </WidgetDataProvider>
  );
}

function WidgetBody({ widget, product }: { widget: Widget; product: ProductRow }): ComponentChildren {
  switch (widget.type) {
    case 'metric':
      return <MetricWidget widget={widget} product={product} />;
    case 'timeseries':
      return <TimeseriesWidget widget={widget} product={product} />;
    case 'funnel':
      return <FunnelWidget widget={widget} product={product} />;
    case 'payback':
      return <PaybackWidget product={product} />;
    case 'queue':
      return <QueueWidget product={product} />;
    case 'breakdown':
      return <BreakdownWidget widget={widget} product={product} />;
    case 'note':
      return <NoteWidget widget={widget} />;
  }
}

function defaultTitle(widget: Widget, product: ProductRow): string {
  switch (widget.type) {
    case 'metric':
      return metricTitle(widget, product);
    case 'timeseries':
      return timeseriesTitle(widget);
    case 'funnel':
      return funnelTitle(widget);
    case 'payback':
      return 'Cohort payback';
    case 'queue':
      return 'Waiting for a decision';
    case 'breakdown':
      return breakdownTitle(widget);
    case 'note':
      return 'Note';
  }
}
