// Where each widget sits on the 12-column grid. With no layout anywhere, widgets flow in order
// and take their `size` in columns (the browser packs them, rows as tall as their content).
// Once any widget has a layout, rows are 32px: placed widgets go where they say and the rest
// auto-pack in shelves below the lowest placed one, with a height that suits their type.

import type { Widget, WidgetType } from './spec';
import { SIZE_COLUMNS } from './spec';

export const GRID_COLUMNS = 12;
export const ROW_PX = 32;

/** Rows (of 32px) an unplaced widget takes on a laid-out grid. */
const DEFAULT_ROWS: Record<WidgetType, number> = {
  metric: 3,
  note: 3,
  queue: 6,
  timeseries: 7,
  funnel: 7,
  breakdown: 7,
  payback: 8,
};

export interface Placement {
  /** CSS for the widget's grid cell. */
  style: Record<string, string>;
}

export interface GridPlan {
  /** True when rows are fixed at 32px (some widget has a layout). */
  fixedRows: boolean;
  placements: Placement[];
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, Math.round(value)));
}

function columnsOf(widget: Widget): number {
  return SIZE_COLUMNS[widget.size ?? 'md'];
}

export function planGrid(widgets: Widget[]): GridPlan {
  const anyLayout = widgets.some((widget) => widget.layout);
  if (!anyLayout) {
    return {
      fixedRows: false,
      placements: widgets.map((widget) => ({ style: { gridColumn: `span ${columnsOf(widget)}` } })),
    };
  }

  let bottom = 0;
  const placements = widgets.map((widget): Placement => {
    if (!widget.layout) return { style: {} };
    const x = clamp(widget.layout.x, 0, GRID_COLUMNS - 1);
    const w = clamp(widget.layout.w, 1, GRID_COLUMNS - x);
    const y = clamp(widget.layout.y, 0, 500);
    const h = clamp(widget.layout.h, 1, 60);
    bottom = Math.max(bottom, y + h);
    return { style: { gridColumn: `${x + 1} / span ${w}`, gridRow: `${y + 1} / span ${h}` } };
  });

  // Shelf packing below the placed widgets, in spec order.
  let shelfTop = bottom;
  let shelfHeight = 0;
  let cursor = 0;
  widgets.forEach((widget, index) => {
    if (widget.layout) return;
    const w = columnsOf(widget);
    const h = DEFAULT_ROWS[widget.type];
    if (cursor + w > GRID_COLUMNS) {
      shelfTop += shelfHeight;
      shelfHeight = 0;
      cursor = 0;
    }
    placements[index] = {
      style: { gridColumn: `${cursor + 1} / span ${w}`, gridRow: `${shelfTop + 1} / span ${h}` },
    };
    cursor += w;
    shelfHeight = Math.max(shelfHeight, h);
  });

  return { fixedRows: true, placements };
}
