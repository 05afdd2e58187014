// The scorecard matrix: a section heading row, then a row per metric with a cell per week. In
// the product's page, manual rows' cells are inputs (typed cells go out with "Save typed
// cells"); the shared view is read-only.

import { Fragment } from 'preact';
import { cellText } from './format';
import type { Matrix } from './types';

export function MatrixTable({
  matrix,
  typed,
  onType,
}: {
  matrix: Matrix;
  /** Cells typed but not saved yet, by `metric|week`; absent in the read-only view. */
  typed?: Record<string, string>;
  onType?: (metric: string, week: string, text: string) => void;
}) {
  const columns = matrix.weeks.length + 1;
  return (
    <div class="table-scroll">
      <table class="striped scorecard-matrix" data-weeks={matrix.weeks.length}>
        <thead>
          <tr>
            <th scope="col">Metric</th>
            {matrix.weeks.map((week) => (
              <th scope="col" class="num" title={`${week.start} – ${week.end}`} data-week={week.key}>
                {week.key}
                {week.current && <small class="muted"> (so far)</small>}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {matrix.sections.map((section) => (
            <Fragment key={section.key}>
              <tr class="scorecard-section" data-section={section.key}>
                <th scope="rowgroup" colSpan={columns}>
                  {section.label}
                </th>
              </tr>
              {section.rows.map((row) => (
                <tr key={row.metric} data-metric={row.metric}>
                  <th scope="row">
                    {row.label}
                    {row.manual && <small class="muted"> typed</small>}
                  </th>
                  {row.values.map((cell) => {
                    const key = `${row.metric}|${cell.week}`;
                    if (row.manual && typed && onType) {
                      return (
                        <td class="num">
                          <input
                            class="scorecard-input"
                            inputMode="decimal"
                            aria-label={`${row.label}, ${cell.week}`}
                            data-cell={key}
                            value={typed[key] ?? (cell.value === null ? '' : String(cell.value))}
                            onInput={(event) => onType(row.metric, cell.week, (event.target as HTMLInputElement).value)}
                          />
                        </td>
                      );
                    }
                    return (
                      <td class="num" data-cell={key}>
                        {cellText(cell.value, row.unit, matrix.currency)}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </Fragment>
          ))}
        </tbody>
      </table>
    </div>
  );
}
