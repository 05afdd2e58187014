// The DashboardSpec as the interface defines it (spec: Dashboard): the built-in Overview and
// stored dashboards share these types, so a widget the renderer cannot draw fails to compile.

export type WidgetSize = 'xs' | 'sm' | 'md' | 'lg';

/** Grid units: 12 columns, 32px rows. */
export interface WidgetLayout {
  x: number; // 0-11
  y: number; // 0-500
  w: number; // 1-12
  h: number; // 1-60
}

interface WidgetBase {
  /** 1-40 characters, stable within the dashboard. */
  id: string;
  /** At most 80 characters. */
  title?: string;
  size?: WidgetSize;
  layout?: WidgetLayout;
}

export type MetricName =
  | 'spend_30d'
  | 'revenue_30d'
  | 'customers_30d'
  | 'cac'
  | 'ltv'
  | 'ltv_cac'
  | 'visits_30d'
  | 'leads_30d'
  | 'pending_cards';

export type SeriesName = 'spend' | 'revenue' | 'visits' | 'leads' | 'customers';

export type BreakdownMeasure = 'spend' | 'revenue_first' | 'revenue_last';

export interface MetricWidget extends WidgetBase {
  type: 'metric';
  metric: MetricName;
}

export interface TimeseriesWidget extends WidgetBase {
  type: 'timeseries';
  series: SeriesName;
  /** 1-365, default 30. */
  days?: number;
}

export interface FunnelWidget extends WidgetBase {
  type: 'funnel';
  days?: number;
}

export interface PaybackWidget extends WidgetBase {
  type: 'payback';
}

export interface QueueWidget extends WidgetBase {
  type: 'queue';
}

export interface BreakdownWidget extends WidgetBase {
  type: 'breakdown';
  measure: BreakdownMeasure;
  days?: number;
}

export interface NoteWidget extends WidgetBase {
  type: 'note';
  /** At most 2000 characters. */
  text: string;
}

export type Widget =
  | MetricWidget
  | TimeseriesWidget
  | FunnelWidget
  | PaybackWidget
  | QueueWidget
  | BreakdownWidget
  | NoteWidget;

export type WidgetType = Widget['type'];

export interface DashboardSpec {
  /** At most 24. */
  widgets: Widget[];
}

/** Columns a widget spans when it has no layout. */
export const SIZE_COLUMNS: Record<WidgetSize, number> = { xs: 2, sm: 3, md: 6, lg: 12 };

/** `days` of a widget, clamped to the spec's 1-365 (default 30). */
export function widgetDays(days: number | undefined): number {
  if (days === undefined || !Number.isFinite(days)) return 30;
  return Math.min(365, Math.max(1, Math.round(days)));
}
