// Moving and resizing widgets on the 12-column grid. Every edit first gives each widget an
// explicit layout (the packing the renderer would draw), so what the person sees is what is
// saved, then changes one widget within the spec's bounds: x 0-11, y 0-500, w 1-12, h 1-60,
// x + w at most 12.

import type { Widget, WidgetLayout, WidgetType } from '../../widgets';
import { SIZE_COLUMNS } from '../../widgets/spec';

export const COLUMNS = 12;
const MAX_Y = 500;
const MAX_H = 60;

/** Rows an unplaced widget gets; the renderer's own defaults (widgets/placement.ts). */
const DEFAULT_ROWS: Record<WidgetType, number> = {
  metric: 3,
  note: 3,
  queue: 6,
  timeseries: 7,
  funnel: 7,
  breakdown: 7,
  payback: 8,
};

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}

/**
 * Every widget with a layout: placed ones keep theirs, the rest are packed in shelves below the
 * lowest placed widget, in spec order, as the renderer packs them.
 */
export function withLayouts(widgets: Widget[]): Widget[] {
  let bottom = 0;
  for (const widget of widgets) {
    if (widget.layout) bottom = Math.max(bottom, widget.layout.y + widget.layout.h);
  }
  let shelfTop = bottom;
  let shelfHeight = 0;
  let cursor = 0;
  return widgets.map((widget) => {
    if (widget.layout) return widget;
    const w = SIZE_COLUMNS[widget.size ?? 'md'];
    const h = DEFAULT_ROWS[widget.type];
    if (cursor + w > COLUMNS) {
      shelfTop += shelfHeight;
      shelfHeight = 0;
      cursor = 0;
    }
    const layout: WidgetLayout = { x: cursor, y: Math.min(shelfTop, MAX_Y), w, h };
    cursor += w;
    shelfHeight = Math.max(shelfHeight, h);
    return { ...widget, layout };
  });
}

/** A change to one widget's place or size, in grid units. */
export interface LayoutChange {
  dx?: number;
  dy?: number;
  dw?: number;
  dh?: number;
}

/** `layout` changed by `change`, kept inside the grid (a move keeps the width; a resize keeps x). */
export function adjust(layout: WidgetLayout, change: LayoutChange): WidgetLayout {
  const w = clamp(layout.w + (change.dw ?? 0), 1, COLUMNS);
  const x = clamp(layout.x + (change.dx ?? 0), 0, COLUMNS - w);
  const y = clamp(layout.y + (change.dy ?? 0), 0, MAX_Y);
  const h = clamp(layout.h + (change.dh ?? 0), 1, MAX_H);
  return { x, y, w, h };
}

/** The spec's widgets with `id` moved or resized; every widget gets an explicit layout. */
export function changeLayout(widgets: Widget[], id: string, change: LayoutChange): Widget[] {
  return withLayouts(widgets).map((widget) =>
    widget.id === id && widget.layout ? { ...widget, layout: adjust(widget.layout, change) } : widget,
  );
}

/** The first free row below every placed widget: where a new widget goes. */
export function nextRow(widgets: Widget[]): number {
  return withLayouts(widgets).reduce((bottom, widget) => Math.max(bottom, (widget.layout?.y ?? 0) + (widget.layout?.h ?? 0)), 0);
}

/** An id not yet used in the spec, from the widget's type (`metric`, `metric-2`, ...). */
export function freshId(widgets: Widget[], base: string): string {
  const taken = new Set(widgets.map((widget) => widget.id));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n += 1) {
    const id = `${base}-${n}`;
    if (!taken.has(id)) return id;
  }
}
