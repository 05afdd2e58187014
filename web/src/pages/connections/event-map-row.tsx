// One event map in the editor: which table (or collection) is read into which stage, and which
// of its columns hold the time, the row's unique key, the person, the campaign and the money.
// A refusal of the server that names this map is shown inside it, next to the field.

import { useId } from 'preact/hooks';
import { count } from '../../format';
import { STAGES } from '../funnel/types';
import type { FunnelStage } from '../funnel/types';
import type { DatabaseShape, MoneyUnit, TableSummary } from './database-types';
import type { MapDraft } from './event-map-draft';
import { carriesRevenue, mapTitle } from './event-map-draft';
import { ColumnInput } from './column-input';
import { MapAttribution } from './map-attribution';
import { MapFilter } from './map-filter';

/** A refusal of the server about one map: `field` is the path inside it, e.g. `timestamp`. */
export interface MapError {
  field: string;
  message: string;
}

/** How a table is named in the table select: `schema.name`, or the name in the default schema. */
export function tableKey(table: { schema?: string | null; name: string }): string {
  return table.schema ? `${table.schema}.${table.name}` : table.name;
}

export function EventMapRow({
  index,
  draft,
  shape,
  tables,
  error,
  onChange,
  onRemove,
}: {
  index: number;
  draft: MapDraft;
  shape: DatabaseShape;
  /** The tables read by the last suggestion request; null until one was made. */
  tables: TableSummary[] | null;
  error: MapError | null;
  onChange: (draft: MapDraft) => void;
  onRemove: () => void;
}) {
  const id = useId();
  const words = shape.words;
  const update = (change: Partial<MapDraft>) => onChange({ ...draft, ...change });
  const invalid = (field: string) => error?.field === field;
  const current = tables?.find((t) => t.name === draft.table && (t.schema ?? '') === draft.schema);
  const columnsList = current ? `${id}-columns` : undefined;
  const column = (label: string, field: 'timestamp' | 'dedupe_key' | 'user_id' | 'anonymous_id' | 'email') => (
    <ColumnInput
      label={label}
      value={draft[field]}
      columnsList={columnsList}
      invalid={invalid(field)}
      onInput={(value) => update({ [field]: value })}
    />
  );

  return (
    <fieldset class="event-map">
      <legend>
        Map {index + 1}: {mapTitle(draft)}
      </legend>
      {current && (
        <datalist id={columnsList}>
          {current.columns.map((c) => (
            <option value={c.name}>{`${c.name} (${c.data_type})`}</option>
          ))}
        </datalist>
      )}
      <div class="grid">
        {tables && tables.length > 0 ? (
          <TableSelect label={capitalized(words.table)} draft={draft} tables={tables} onChange={update} />
        ) : (
          <ColumnInput
            label={capitalized(words.table)}
            value={draft.table}
            invalid={invalid('table')}
            onInput={(table) => update({ table })}
          />
        )}
        {shape.namespace !== null && (
          <ColumnInput
            label={shape.namespace}
            value={draft.schema}
            invalid={invalid('schema')}
            onInput={(schema) => update({ schema })}
          />
        )}
        <label>
          Stage
          <select
            value={draft.stage}
            aria-invalid={invalid('stage') ? true : undefined}
            onChange={(event) => update({ stage: (event.currentTarget as HTMLSelectElement).value as FunnelStage })}
          >
            {STAGES.map((stage) => (
              <option value={stage}>{stage}</option>
            ))}
          </select>
        </label>
      </div>
      <div class="grid">
        {column(`Timestamp ${words.field}`, 'timestamp')}
        {column(`Unique key ${words.field}`, 'dedupe_key')}
        <ColumnInput
          label="Event name (optional)"
          value={draft.name}
          placeholder={draft.table || undefined}
          invalid={invalid('name')}
          onInput={(name) => update({ name })}
        />
      </div>
      <div class="grid">
        {column(`User id ${words.field}`, 'user_id')}
        {column(`Anonymous id ${words.field}`, 'anonymous_id')}
        {column(`Email ${words.field}`, 'email')}
      </div>
      {carriesRevenue(draft.stage) && (
        <div class="map-part">
          <strong class="map-part-title">Revenue</strong>
          <div class="grid">
            <ColumnInput
              label={`Amount ${words.field}`}
              value={draft.revenue.column}
              columnsList={columnsList}
              invalid={invalid('revenue.column')}
              onInput={(value) => update({ revenue: { ...draft.revenue, column: value } })}
            />
            <label>
              Amount unit
              <select
                value={draft.revenue.unit}
                onChange={(event) =>
                  update({
                    revenue: { ...draft.revenue, unit: (event.currentTarget as HTMLSelectElement).value as MoneyUnit },
                  })
                }
              >
                <option value="cents">cents: whole minor units (1999)</option>
                <option value="major">major: a decimal amount (19.99)</option>
              </select>
            </label>
            <ColumnInput
              label={`Currency ${words.field} (optional)`}
              value={draft.revenue.currency}
              columnsList={columnsList}
              invalid={invalid('revenue.currency')}
              onInput={(value) => update({ revenue: { ...draft.revenue, currency: value } })}
            />
          </div>
          <small class="muted">
            Leave the amount empty for events without money. Rows in another currency than the product's are skipped,
            never converted.
          </small>
        </div>
      )}
      <MapAttribution
        rows={draft.attribution}
        onChange={(attribution) => update({ attribution })}
        columnsList={columnsList}
        fieldWord={words.field}
        invalidField={error?.field ?? null}
      />
      <MapFilter
        rows={draft.filter}
        onChange={(filter) => update({ filter })}
        columnsList={columnsList}
        fieldWord={words.field}
        invalidField={error?.field ?? null}
      />
      {error && (
        <p role="alert" class="error-note">
          {error.message}
        </p>
      )}
      <button type="button" class="outline secondary small" onClick={onRemove} aria-label={`Remove map ${index + 1}`}>
        Remove map
      </button>
    </fieldset>
  );
}

/** The table as a choice among those the schema summary holds (plus the current one if not). */
function TableSelect({
  label,
  draft,
  tables,
  onChange,
}: {
  label: string;
  draft: MapDraft;
  tables: TableSummary[];
  onChange: (change: Partial<MapDraft>) => void;
}) {
  const selected = tableKey({ schema: draft.schema, name: draft.table });
  const known = tables.some((t) => tableKey(t) === selected);
  return (
    <label>
      {label}
      <select
        value={selected}
        onChange={(event) => {
          const key = (event.currentTarget as HTMLSelectElement).value;
          const table = tables.find((t) => tableKey(t) === key);
          if (table) onChange({ table: table.name, schema: table.schema ?? '' });
        }}
      >
        {!known && <option value={selected}>{draft.table ? selected : 'choose…'}</option>}
        {tables.map((t) => (
          <option value={tableKey(t)}>
            {tableKey(t)}
            {typeof t.row_estimate === 'number' ? ` (about ${count(t.row_estimate)} rows)` : ''}
          </option>
        ))}
      </select>
    </label>
  );
}

function capitalized(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
