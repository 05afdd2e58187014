// The filter of an event map: conditions every row read must meet (all of them), such as
// `status eq paid`. Values are typed as text and read by `parseValue`.

import { FILTER_OPS } from './database-types';
import type { FilterOp } from './database-types';
import type { ConditionDraft } from './event-map-draft';
import { takesList, takesValue } from './event-map-draft';
import { ColumnInput } from './column-input';

const OP_WORDS: Record<FilterOp, string> = {
  eq: 'equals',
  ne: 'differs from',
  gt: 'greater than',
  gte: 'at least',
  lt: 'less than',
  lte: 'at most',
  in: 'one of',
  not_in: 'none of',
  is_null: 'is empty',
  not_null: 'is not empty',
};

export function MapFilter({
  rows,
  onChange,
  columnsList,
  fieldWord,
  invalidField,
}: {
  rows: ConditionDraft[];
  onChange: (rows: ConditionDraft[]) => void;
  columnsList?: string;
  fieldWord: string;
  /** The field the server's refusal named, such as `filter[0].value`. */
  invalidField: string | null;
}) {
  const update = (index: number, change: Partial<ConditionDraft>) =>
    onChange(rows.map((row, i) => (i === index ? { ...row, ...change } : row)));

  return (
    <div class="map-part">
      <strong class="map-part-title">Filter</strong>
      {rows.length === 0 ? (
        <small class="muted">None: every row becomes an event.</small>
      ) : (
        <small class="muted">
          Rows must meet every condition. Numbers and true/false compare as such; quote them ("42") to compare text;
          separate the values of "one of" with commas.
        </small>
      )}
      {rows.map((row, index) => (
        <div class="map-subrow" key={index}>
          <ColumnInput
            label={`Filter ${index + 1} ${fieldWord}`}
            value={row.column}
            columnsList={columnsList}
            invalid={invalidField === `filter[${index}].column`}
            onInput={(column) => update(index, { column })}
          />
          <label>
            Filter {index + 1} comparison
            <select
              value={row.op}
              onChange={(event) => update(index, { op: (event.currentTarget as HTMLSelectElement).value as FilterOp })}
            >
              {FILTER_OPS.map((op) => (
                <option value={op}>{OP_WORDS[op]}</option>
              ))}
            </select>
          </label>
          {takesValue(row.op) ? (
            <label>
              Filter {index + 1} {takesList(row.op) ? 'values' : 'value'}
              <input
                value={row.value}
                maxLength={2000}
                autocomplete="off"
                placeholder={takesList(row.op) ? 'paid, refunded' : 'paid'}
                aria-invalid={invalidField === `filter[${index}].value` ? true : undefined}
                onInput={(event) => update(index, { value: (event.currentTarget as HTMLInputElement).value })}
              />
            </label>
          ) : (
            <span />
          )}
          <button
            type="button"
            class="outline secondary small"
            aria-label={`Remove filter ${index + 1}`}
            onClick={() => onChange(rows.filter((_, i) => i !== index))}
          >
            Remove
          </button>
        </div>
      ))}
      <button
        type="button"
        class="outline small"
        onClick={() => onChange([...rows, { column: '', op: 'eq', value: '' }])}
      >
        Add condition
      </button>
    </div>
  );
}
