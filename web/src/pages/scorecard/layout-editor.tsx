// Editing the scorecard's layout: sections with labels, catalog rows (renamed or not) and typed
// (manual) rows with their own key, label and unit. Saving replaces the layout whole
// (POST /products/{slug}/scorecard); the server names any field it refuses.

import { useState } from 'preact/hooks';
import { api } from '../../api';
import { ErrorNote } from '../../ui/states';
import { useAction } from '../../ui/use-api';
import type { CatalogEntry, Matrix, Unit } from './types';

interface EditRow {
  metric: string;
  label: string;
  manual: boolean;
  unit: Unit;
}

interface EditSection {
  key: string;
  label: string;
  rows: EditRow[];
}

const units: Unit[] = ['count', 'cents', 'percent', 'ratio'];

export function LayoutEditor({
  matrix,
  onSaved,
  onCancel,
}: {
  matrix: Matrix;
  onSaved: (matrix: Matrix) => void;
  onCancel: () => void;
}) {
  const [sections, setSections] = useState<EditSection[]>(() =>
    matrix.sections.map((section) => ({
      key: section.key,
      label: section.label,
      rows: section.rows.map(({ metric, label, manual, unit }) => ({ metric, label, manual, unit })),
    })),
  );
  const used = new Set(sections.flatMap((section) => section.rows.map((row) => row.metric)));
  const save = useAction(async () => {
    const body = {
      sections: sections.map((section) => ({
        key: section.key || undefined,
        label: section.label,
        rows: section.rows.map((row) =>
          row.manual
            ? { metric: row.metric, label: row.label, manual: true, unit: row.unit }
            : { metric: row.metric, label: row.label },
        ),
      })),
      template: null,
    };
    const saved = await api.post<Matrix>(`/products/${encodeURIComponent(matrix.product_slug)}/scorecard`, body);
    onSaved(saved);
  });
  const change = (index: number, update: (section: EditSection) => EditSection) =>
    setSections(sections.map((section, i) => (i === index ? update(section) : section)));

  return (
    <form
      class="scorecard-editor"
      aria-label="Edit the scorecard layout"
      onSubmit={(event) => {
        event.preventDefault();
        void save.run();
      }}
    >
      {sections.map((section, s) => (
        <fieldset key={s} data-edit-section={s}>
          <legend>
            <input
              aria-label={`Section ${s + 1} label`}
              value={section.label}
              onInput={(e) => change(s, (x) => ({ ...x, label: (e.target as HTMLInputElement).value }))}
            />
          </legend>
          {section.rows.map((row, r) => (
            <div class="grid scorecard-edit-row" data-edit-row={row.metric}>
              <input
                aria-label={`Label of ${row.metric}`}
                value={row.label}
                onInput={(e) =>
                  change(s, (x) => ({
                    ...x,
                    rows: x.rows.map((y, i) => (i === r ? { ...y, label: (e.target as HTMLInputElement).value } : y)),
                  }))
                }
              />
              <code>{row.metric}</code>
              {row.manual ? (
                <select
                  aria-label={`Unit of ${row.metric}`}
                  value={row.unit}
                  onChange={(e) =>
                    change(s, (x) => ({
                      ...x,
                      rows: x.rows.map((y, i) => (i === r ? { ...y, unit: (e.target as HTMLSelectElement).value as Unit } : y)),
                    }))
                  }
                >
                  {units.map((unit) => (
                    <option value={unit}>{unit}</option>
                  ))}
                </select>
              ) : (
                <span class="muted">{row.unit}</span>
              )}
              <button
                type="button"
                class="outline secondary small"
                onClick={() => change(s, (x) => ({ ...x, rows: x.rows.filter((_, i) => i !== r) }))}
              >
                Remove {row.metric}
              </button>
            </div>
          ))}
          <AddRow
            catalog={matrix.catalog.filter((entry) => !used.has(entry.metric))}
            onAdd={(row) => change(s, (x) => ({ ...x, rows: [...x.rows, row] }))}
            section={s}
          />
          <button
            type="button"
            class="outline secondary small"
            onClick={() => setSections(sections.filter((_, i) => i !== s))}
          >
            Remove section
          </button>
        </fieldset>
      ))}
      <div class="scorecard-editor-actions">
        <button
          type="button"
          class="outline"
          onClick={() => setSections([...sections, { key: '', label: 'New section', rows: [] }])}
        >
          Add a section
        </button>
        <button type="submit" aria-busy={save.busy}>
          Save layout
        </button>
        <button type="button" class="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
      <ErrorNote error={save.error} />
    </form>
  );
}

function AddRow({
  catalog,
  onAdd,
  section,
}: {
  catalog: CatalogEntry[];
  onAdd: (row: EditRow) => void;
  section: number;
}) {
  const [metric, setMetric] = useState('');
  const [key, setKey] = useState('');
  const [label, setLabel] = useState('');
  return (
    <div class="grid scorecard-add">
      <select
        aria-label={`Add a metric to section ${section + 1}`}
        value={metric}
        onChange={(e) => {
          const chosen = catalog.find((entry) => entry.metric === (e.target as HTMLSelectElement).value);
          if (chosen) onAdd({ metric: chosen.metric, label: chosen.label, manual: false, unit: chosen.unit });
          setMetric('');
        }}
      >
        <option value="">Add a metric…</option>
        {catalog.map((entry) => (
          <option value={entry.metric}>
            {entry.label}
            {entry.available ? '' : ' (not connected)'}
          </option>
        ))}
      </select>
      <input
        aria-label={`New typed row key in section ${section + 1}`}
        placeholder="typed row key, e.g. mrr"
        value={key}
        onInput={(e) => setKey((e.target as HTMLInputElement).value)}
      />
      <input
        aria-label={`New typed row label in section ${section + 1}`}
        placeholder="label, e.g. MRR"
        value={label}
        onInput={(e) => setLabel((e.target as HTMLInputElement).value)}
      />
      <button
        type="button"
        class="outline small"
        onClick={() => {
          onAdd({ metric: key.trim(), label: label.trim(), manual: true, unit: 'count' });
          setKey('');
          setLabel('');
        }}
      >
        Add typed row
      </button>
    </div>
  );
}
