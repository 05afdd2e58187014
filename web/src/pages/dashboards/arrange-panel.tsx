// Rearranging a dashboard without a mouse: per widget, buttons that move it a column or a row,
// make it wider, narrower, taller or shorter, or remove it. Each button names its widget, so a
// screen reader hears "Wider: CAC". Changes apply to the draft drawn above; Save stores them.

import type { Widget } from '../../widgets';
import type { LayoutChange } from './layout';
import { COLUMNS, withLayouts } from './layout';
import { widgetLabel } from './widget-label';

const CONTROLS: { label: string; change: LayoutChange; symbol: string }[] = [
  { label: 'Move left', change: { dx: -1 }, symbol: '←' },
  { label: 'Move right', change: { dx: 1 }, symbol: '→' },
  { label: 'Move up', change: { dy: -1 }, symbol: '↑' },
  { label: 'Move down', change: { dy: 1 }, symbol: '↓' },
  { label: 'Narrower', change: { dw: -1 }, symbol: '−W' },
  { label: 'Wider', change: { dw: 1 }, symbol: '+W' },
  { label: 'Shorter', change: { dh: -1 }, symbol: '−H' },
  { label: 'Taller', change: { dh: 1 }, symbol: '+H' },
];

/** Whether `change` would do anything to a widget placed at `layout` (disabled otherwise). */
function canChange(layout: { x: number; y: number; w: number; h: number }, change: LayoutChange): boolean {
  if (change.dx) return change.dx < 0 ? layout.x > 0 : layout.x + layout.w < COLUMNS;
  if (change.dy) return change.dy < 0 ? layout.y > 0 : layout.y < 500;
  if (change.dw) return change.dw < 0 ? layout.w > 1 : layout.w < COLUMNS;
  if (change.dh) return change.dh < 0 ? layout.h > 1 : layout.h < 60;
  return false;
}

export function ArrangePanel({
  widgets,
  onChange,
  onRemove,
}: {
  widgets: Widget[];
  onChange: (id: string, change: LayoutChange) => void;
  onRemove: (id: string) => void;
}) {
  const placed = withLayouts(widgets);
  return (
    <table class="arrange-panel">
      <thead>
        <tr>
          <th scope="col">Widget</th>
          <th scope="col">Place (column, row)</th>
          <th scope="col">Size (columns × rows)</th>
          <th scope="col">Change</th>
        </tr>
      </thead>
      <tbody>
        {placed.map((widget) => {
          const layout = widget.layout ?? { x: 0, y: 0, w: 1, h: 1 };
          const label = widgetLabel(widget);
          return (
            <tr data-arrange={widget.id}>
              <th scope="row">{label}</th>
              <td data-cell="place">
                {layout.x + 1}, {layout.y + 1}
              </td>
              <td data-cell="size">
                {layout.w} × {layout.h}
              </td>
              <td>
                <div class="row-actions">
                  {CONTROLS.map((control) => (
                    <button
                      type="button"
                      class="outline secondary small"
                      aria-label={`${control.label}: ${label}`}
                      title={control.label}
                      disabled={!canChange(layout, control.change)}
                      onClick={() => onChange(widget.id, control.change)}
                    >
                      {control.symbol}
                    </button>
                  ))}
                  <button
                    type="button"
                    class="outline secondary small"
                    aria-label={`Remove: ${label}`}
                    onClick={() => onRemove(widget.id)}
                  >
                    Remove
                  </button>
                </div>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
