// Adds one widget to a dashboard being edited: its type, the one field that type needs (which
// metric, which line, which split, the note's text) and its window where it takes one. The new
// widget goes on a free row below the others, at its type's usual width.

import { useState } from 'preact/hooks';
import type { Widget, WidgetType } from '../../widgets';
import type { BreakdownMeasure, MetricName, SeriesName } from '../../widgets/spec';
import { METRIC_LABELS } from '../../widgets/metrics';
import { freshId, nextRow } from './layout';

const TYPE_LABELS: Record<WidgetType, string> = {
  metric: 'Number',
  timeseries: 'Daily line',
  funnel: 'Funnel',
  payback: 'Cohort payback',
  queue: 'Approval queue',
  breakdown: 'By channel',
  note: 'Note',
};

const SERIES_LABELS: Record<SeriesName, string> = {
  spend: 'Spend',
  revenue: 'Revenue',
  visits: 'Visits',
  leads: 'Leads',
  customers: 'Customers',
};

const MEASURE_LABELS: Record<BreakdownMeasure, string> = {
  spend: 'Spend by channel',
  revenue_first: 'Revenue by first touch',
  revenue_last: 'Revenue by last touch',
};

const TAKES_DAYS: WidgetType[] = ['timeseries', 'funnel', 'breakdown'];

/** Width and height in grid units a new widget of each type starts with. */
function startSize(type: WidgetType): { w: number; h: number } {
  if (type === 'metric') return { w: 3, h: 3 };
  if (type === 'note') return { w: 6, h: 3 };
  return { w: 6, h: 8 };
}

export function AddWidget({ widgets, onAdd }: { widgets: Widget[]; onAdd: (widget: Widget) => void }) {
  const [type, setType] = useState<WidgetType>('metric');
  const [metric, setMetric] = useState<MetricName>('revenue_30d');
  const [series, setSeries] = useState<SeriesName>('revenue');
  const [measure, setMeasure] = useState<BreakdownMeasure>('revenue_first');
  const [days, setDays] = useState('30');
  const [text, setText] = useState('');

  const submit = (event: Event) => {
    event.preventDefault();
    const { w, h } = startSize(type);
    const layout = { x: 0, y: nextRow(widgets), w, h };
    const id = freshId(widgets, type);
    const windowDays = Math.min(365, Math.max(1, Number(days) || 30));
    // Left at 30 the window stays out of the spec, as the composer leaves it.
    const withDays = windowDays === 30 ? {} : { days: windowDays };
    let widget: Widget;
    switch (type) {
      case 'metric':
        widget = { id, type, metric, layout };
        break;
      case 'timeseries':
        widget = { id, type, series, layout, ...withDays };
        break;
      case 'funnel':
        widget = { id, type, layout, ...withDays };
        break;
      case 'breakdown':
        widget = { id, type, measure, layout, ...withDays };
        break;
      case 'payback':
      case 'queue':
        widget = { id, type, layout };
        break;
      case 'note':
        widget = { id, type, text: text.trim(), layout };
        break;
    }
    onAdd(widget);
    setText('');
  };

  return (
    <form class="add-widget" onSubmit={submit} aria-label="Add a widget">
      <label>
        Widget
        <select name="type" value={type} onChange={(e) => setType((e.currentTarget as HTMLSelectElement).value as WidgetType)}>
          {(Object.keys(TYPE_LABELS) as WidgetType[]).map((key) => (
            <option value={key}>{TYPE_LABELS[key]}</option>
          ))}
        </select>
      </label>
      {type === 'metric' && (
        <label>
          Number
          <select name="metric" value={metric} onChange={(e) => setMetric((e.currentTarget as HTMLSelectElement).value as MetricName)}>
            {(Object.keys(METRIC_LABELS) as MetricName[]).map((key) => (
              <option value={key}>{METRIC_LABELS[key]}</option>
            ))}
          </select>
        </label>
      )}
      {type === 'timeseries' && (
        <label>
          Line
          <select name="series" value={series} onChange={(e) => setSeries((e.currentTarget as HTMLSelectElement).value as SeriesName)}>
            {(Object.keys(SERIES_LABELS) as SeriesName[]).map((key) => (
              <option value={key}>{SERIES_LABELS[key]}</option>
            ))}
          </select>
        </label>
      )}
      {type === 'breakdown' && (
        <label>
          Split
          <select
            name="measure"
            value={measure}
            onChange={(e) => setMeasure((e.currentTarget as HTMLSelectElement).value as BreakdownMeasure)}
          >
            {(Object.keys(MEASURE_LABELS) as BreakdownMeasure[]).map((key) => (
              <option value={key}>{MEASURE_LABELS[key]}</option>
            ))}
          </select>
        </label>
      )}
      {TAKES_DAYS.includes(type) && (
        <label>
          Days
          <input
            type="number"
            name="days"
            min={1}
            max={365}
            required
            value={days}
            onInput={(e) => setDays((e.currentTarget as HTMLInputElement).value)}
          />
        </label>
      )}
      {type === 'note' && (
        <label>
          Text
          <textarea
            name="text"
            required
            maxLength={2000}
            value={text}
            onInput={(e) => setText((e.currentTarget as HTMLTextAreaElement).value)}
          />
        </label>
      )}
      <button type="submit" class="small">
        Add widget
      </button>
    </form>
  );
}
