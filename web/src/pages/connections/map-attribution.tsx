// The attribution part of an event map: which column holds each marketing field (utm_source,
// gclid, referrer, ...), one row per field, each field at most once.

import { ATTRIBUTION_FIELDS } from './database-types';
import type { AttributionDraft } from './event-map-draft';
import { ColumnInput } from './column-input';

export function MapAttribution({
  rows,
  onChange,
  columnsList,
  fieldWord,
  invalidField,
}: {
  rows: AttributionDraft[];
  onChange: (rows: AttributionDraft[]) => void;
  columnsList?: string;
  fieldWord: string;
  /** The field the server's refusal named, such as `attribution.utm_source`. */
  invalidField: string | null;
}) {
  const used = new Set(rows.map((row) => row.field));
  const unused = ATTRIBUTION_FIELDS.filter((field) => !used.has(field));
  const update = (index: number, change: Partial<AttributionDraft>) =>
    onChange(rows.map((row, i) => (i === index ? { ...row, ...change } : row)));

  return (
    <div class="map-part">
      <strong class="map-part-title">Attribution</strong>
      {rows.length === 0 && <small class="muted">None: these events carry no campaign or click ids.</small>}
      {rows.map((row, index) => (
        <div class="map-subrow map-subrow-pair" key={index}>
          <label>
            Attribution field {index + 1}
            <select
              value={row.field}
              onChange={(event) => update(index, { field: (event.currentTarget as HTMLSelectElement).value })}
            >
              {ATTRIBUTION_FIELDS.map((field) => (
                <option value={field} disabled={field !== row.field && used.has(field)}>
                  {field}
                </option>
              ))}
            </select>
          </label>
          <ColumnInput
            label={`Attribution ${fieldWord} ${index + 1}`}
            value={row.column}
            columnsList={columnsList}
            invalid={invalidField === `attribution.${row.field}`}
            onInput={(column) => update(index, { column })}
          />
          <button
            type="button"
            class="outline secondary small"
            aria-label={`Remove attribution field ${index + 1}`}
            onClick={() => onChange(rows.filter((_, i) => i !== index))}
          >
            Remove
          </button>
        </div>
      ))}
      <button
        type="button"
        class="outline small"
        disabled={unused.length === 0}
        onClick={() => onChange([...rows, { field: unused[0], column: '' }])}
      >
        Add attribution field
      </button>
    </div>
  );
}
