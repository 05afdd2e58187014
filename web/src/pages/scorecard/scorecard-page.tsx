// `#/p/:slug/scorecard`: the founder's Monday table. A row per metric, a column per completed
// ISO week (Monday to Sunday, UTC), oldest first. From here: edit the layout or apply a
// template, type the manual rows' cells, read the week-on-week insights, export CSV or XLSX,
// share a read-only link (and revoke it), and sync to Google Sheets when the server can.

import { useState } from 'preact/hooks';
import { api } from '../../api';
import type { ProductRow } from '../../types';
import { ProductFrame } from '../../ui/product-frame';
import { Await, ErrorNote } from '../../ui/states';
import { useAction, useApi } from '../../ui/use-api';
import { download } from './download';
import { InsightsPanel } from './insights-panel';
import { LayoutEditor } from './layout-editor';
import { MatrixTable } from './matrix-table';
import { SharePanel } from './share-panel';
import { templates, type Matrix, type Synced } from './types';
import './scorecard.css';

const weekChoices = [4, 8, 13, 26, 52];

export function ScorecardPage({ slug }: { slug: string }) {
  return <ProductFrame slug={slug} tab="/scorecard">{(product) => <ScorecardBody product={product} />}</ProductFrame>;
}

function ScorecardBody({ product }: { product: ProductRow }) {
  const [weeks, setWeeks] = useState(13);
  const [current, setCurrent] = useState(false);
  const base = `/products/${encodeURIComponent(product.slug)}/scorecard`;
  const query = `?weeks=${weeks}${current ? '&current=1' : ''}`;
  const loaded = useApi<Matrix>(`${base}${query}`);
  return (
    <div class="scorecard">
      <div class="scorecard-toolbar">
        <label>
          Weeks{' '}
          <select
            aria-label="Weeks shown"
            value={weeks}
            onChange={(e) => setWeeks(Number((e.target as HTMLSelectElement).value))}
          >
            {weekChoices.map((n) => (
              <option value={n}>{n}</option>
            ))}
          </select>
        </label>
        <label>
          <input
            type="checkbox"
            role="switch"
            checked={current}
            onChange={(e) => setCurrent((e.target as HTMLInputElement).checked)}
          />{' '}
          This week so far
        </label>
      </div>
      <Await loaded={loaded} what="Loading the scorecard">
        {(matrix) => <ScorecardView matrix={matrix} base={base} query={query} reload={loaded.reload} />}
      </Await>
    </div>
  );
}

function ScorecardView({
  matrix,
  base,
  query,
  reload,
}: {
  matrix: Matrix;
  base: string;
  query: string;
  reload: () => void;
}) {
  const [editing, setEditing] = useState(false);
  const [template, setTemplate] = useState(matrix.template ?? 'default');
  const [typed, setTyped] = useState<Record<string, string>>({});
  const [synced, setSynced] = useState<Synced | null>(null);
  const apply = useAction(async () => {
    await api.post<Matrix>(`${base}/template`, { template });
    reload();
  });
  const saveCells = useAction(async () => {
    const cells = Object.entries(typed).map(([key, text]) => {
      const [metric, week] = key.split('|');
      return { metric, week, value: text.trim() === '' ? null : Number(text) };
    });
    await api.post(`${base}/values`, { cells });
    setTyped({});
    reload();
  });
  const exporting = useAction(async (kind: 'csv' | 'xlsx') => {
    await download(`${base}/export.${kind}${query}`, `${matrix.product_slug}-scorecard.${kind}`);
  });
  const sync = useAction(async () => {
    setSynced(await api.post<Synced>(`${base}/sheets/sync`));
    reload();
  });
  const hasManual = matrix.sections.some((section) => section.rows.some((row) => row.manual));
  const spreadsheet = synced?.spreadsheet_url ?? null;

  if (editing) {
    return (
      <LayoutEditor
        matrix={matrix}
        onCancel={() => setEditing(false)}
        onSaved={() => {
          setEditing(false);
          reload();
        }}
      />
    );
  }
  return (
    <>
      <div class="scorecard-actions">
        <button type="button" class="outline" onClick={() => setEditing(true)}>
          Edit layout
        </button>
        <label>
          Template{' '}
          <select
            aria-label="Template"
            value={template}
            onChange={(e) => setTemplate((e.target as HTMLSelectElement).value)}
          >
            {templates.map((t) => (
              <option value={t.name}>{t.label}</option>
            ))}
          </select>
        </label>
        <button type="button" class="outline" aria-busy={apply.busy} onClick={() => void apply.run()}>
          Apply template
        </button>
        <button type="button" class="outline" aria-busy={exporting.busy} onClick={() => void exporting.run('csv')}>
          Export CSV
        </button>
        <button type="button" class="outline" aria-busy={exporting.busy} onClick={() => void exporting.run('xlsx')}>
          Export XLSX
        </button>
        {matrix.sheets_enabled && (
          <button type="button" class="outline" aria-busy={sync.busy} onClick={() => void sync.run()}>
            Sync to Google Sheets
          </button>
        )}
      </div>
      <p class="muted scorecard-meta">
        {matrix.template ? `Template: ${matrix.template}.` : 'Custom layout.'}{' '}
        {matrix.clamped && 'Fewer weeks than asked: that is all the history kept. '}
        {matrix.spreadsheet_id && (
          <span data-spreadsheet={matrix.spreadsheet_id}>
            Synced to a Google spreadsheet
            {spreadsheet && (
              <>
                {' '}
                (<a href={spreadsheet} target="_blank" rel="noopener noreferrer">open it</a>)
              </>
            )}
            .
          </span>
        )}
      </p>
      <ErrorNote error={apply.error ?? exporting.error ?? sync.error} />
      {matrix.sections.length === 0 ? (
        <p class="muted">The scorecard has no rows. Edit the layout or apply a template.</p>
      ) : (
        <MatrixTable
          matrix={matrix}
          typed={typed}
          onType={(metric, week, text) => setTyped({ ...typed, [`${metric}|${week}`]: text })}
        />
      )}
      {hasManual && (
        <div class="scorecard-typed">
          <button
            type="button"
            disabled={Object.keys(typed).length === 0}
            aria-busy={saveCells.busy}
            onClick={() => void saveCells.run()}
          >
            Save typed cells
          </button>
          <ErrorNote error={saveCells.error} />
        </div>
      )}
      <SharePanel base={base} shareUrl={matrix.share_url} onChange={reload} />
      <InsightsPanel base={base} currency={matrix.currency} />
    </>
  );
}
