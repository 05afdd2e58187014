// `#/p/:slug/dashboards/:id`: one stored dashboard drawn by the Overview's widget renderer, with
// its editor: name and description, widgets added, removed, moved and resized on a draft that
// is drawn as it changes and stored whole by Save, and deletion after a question.

import { useState } from 'preact/hooks';
import { href, navigate } from '../../router';
import type { ProductRow } from '../../types';
import { ConfirmAction } from '../../ui/confirm-action';
import { ProductFrame } from '../../ui/product-frame';
import { Await, Empty, ErrorNote } from '../../ui/states';
import { useAction, useApi } from '../../ui/use-api';
import type { DashboardSpec, Widget } from '../../widgets';
import { WidgetGrid } from '../../widgets';
import { AddWidget } from './add-widget';
import { ArrangePanel } from './arrange-panel';
import { DetailsForm } from './details-form';
import { changeLayout } from './layout';
import { deleteDashboard, updateDashboard } from './requests';
import type { Dashboard } from './types';
import { MAX_WIDGETS } from './types';
import './dashboards.css';

export function DashboardPage({ slug, id }: { slug: string; id: string }) {
  return (
    <ProductFrame slug={slug} tab="/dashboards">
      {(product) => <DashboardLoader product={product} id={id} />}
    </ProductFrame>
  );
}

function DashboardLoader({ product, id }: { product: ProductRow; id: string }) {
  // There is no single-dashboard read: the product's list carries every spec.
  const list = useApi<Dashboard[]>(`/products/${encodeURIComponent(product.slug)}/dashboards`);
  return (
    <Await loaded={list} what="Loading the dashboard">
      {(dashboards) => {
        const dashboard = dashboards.find((d) => d.id === id);
        return dashboard ? (
          <DashboardView key={dashboard.id} product={product} stored={dashboard} />
        ) : (
          <Empty title="No such dashboard">
            It may have been deleted. <a href={href(`/p/${product.slug}/dashboards`)}>All dashboards</a>
          </Empty>
        );
      }}
    </Await>
  );
}

function DashboardView({ product, stored }: { product: ProductRow; stored: Dashboard }) {
  const [dashboard, setDashboard] = useState(stored);
  /** The spec being edited; null while just viewing. */
  const [draft, setDraft] = useState<DashboardSpec | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [generation, setGeneration] = useState(0);
  const listPath = `/p/${product.slug}/dashboards`;

  const saveSpec = useAction(async (spec: DashboardSpec) => {
    setDashboard(await updateDashboard(dashboard.id, { spec }));
    setDraft(null);
    setSaved('Layout saved.');
  });
  const remove = useAction(async () => {
    await deleteDashboard(dashboard.id);
    navigate(listPath);
    return true;
  });

  const editWidgets = (change: (widgets: Widget[]) => Widget[]) => {
    setSaved(null);
    setDraft((current) => ({ widgets: change((current ?? dashboard.spec).widgets) }));
  };
  const spec = draft ?? dashboard.spec;

  return (
    <>
      <p>
        <a href={href(listPath)}>← All dashboards</a>
      </p>
      <header class="dashboard-head">
        <div>
          <h2 id="dashboard-name">{dashboard.name}</h2>
          {dashboard.description && <p class="muted" id="dashboard-description">{dashboard.description}</p>}
        </div>
        <div class="row-actions">
          {draft === null && (
            <button type="button" class="outline small" onClick={() => setDraft(dashboard.spec)}>
              Edit widgets
            </button>
          )}
          <button type="button" class="outline secondary small" onClick={() => setGeneration((n) => n + 1)}>
            Refresh numbers
          </button>
          <ConfirmAction
            label="Delete dashboard"
            confirmLabel={`Delete ${dashboard.name}`}
            question={<>This deletes the dashboard “{dashboard.name}” for everyone in the workspace. It cannot be undone.</>}
            busy={remove.busy}
            error={remove.error}
            onConfirm={async () => (await remove.run()) ?? false}
          />
        </div>
      </header>
      <div role="status">{saved && <p class="notice-success">{saved}</p>}</div>

      {draft !== null && (
        <section class="dashboard-editor" aria-labelledby="arrange-title">
          <h3 id="arrange-title">Arrange widgets</h3>
          <p class="muted">
            The grid has 12 columns and rows of 32 pixels. Changes show below at once and are stored when you save.
          </p>
          <ArrangePanel
            widgets={draft.widgets}
            onChange={(id, change) => editWidgets((widgets) => changeLayout(widgets, id, change))}
            onRemove={(id) => editWidgets((widgets) => widgets.filter((widget) => widget.id !== id))}
          />
          {draft.widgets.length < MAX_WIDGETS ? (
            <AddWidget widgets={draft.widgets} onAdd={(widget) => editWidgets((widgets) => [...widgets, widget])} />
          ) : (
            <p class="muted">A dashboard holds at most {MAX_WIDGETS} widgets.</p>
          )}
          <div class="row-actions">
            <button type="button" aria-busy={saveSpec.busy} disabled={saveSpec.busy} onClick={() => void saveSpec.run(draft)}>
              Save layout
            </button>
            <button type="button" class="outline secondary" disabled={saveSpec.busy} onClick={() => setDraft(null)}>
              Discard changes
            </button>
          </div>
          <ErrorNote error={saveSpec.error} />
        </section>
      )}

      <WidgetGrid spec={spec} product={product} generation={generation} />

      <DetailsForm dashboard={dashboard} onSaved={setDashboard} />
    </>
  );
}
