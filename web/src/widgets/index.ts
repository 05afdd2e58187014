// What the rest of the app uses from the widget renderer.

export { WidgetGrid } from './grid';
export { OVERVIEW_SPEC } from './overview';
export type { DashboardSpec, Widget, WidgetLayout, WidgetSize, WidgetType } from './spec';
