// A short name for a widget in the editing controls ("Wider: CAC"), so each button says which
// widget it changes: the widget's title, else what it draws.

import type { Widget } from '../../widgets';
import { METRIC_LABELS } from '../../widgets/metrics';

export function widgetLabel(widget: Widget): string {
  if (widget.title) return widget.title;
  switch (widget.type) {
    case 'metric':
      return METRIC_LABELS[widget.metric];
    case 'timeseries':
      return `Daily ${widget.series}`;
    case 'funnel':
      return 'Funnel';
    case 'payback':
      return 'Cohort payback';
    case 'queue':
      return 'Queue';
    case 'breakdown':
      return widget.measure === 'spend' ? 'Spend by channel' : `Revenue by ${widget.measure === 'revenue_first' ? 'first' : 'last'} touch`;
    case 'note':
      return 'Note';
  }
}
