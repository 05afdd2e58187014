// `#/p/:slug/pages`: the product's landing pages with their traffic over the window (against
// the window before), their friction (rage clicks / dead clicks / script errors the replay
// sources counted), their latest analysis score and whether a filter excludes them; a form
// adding a page by URL; and the exclude filters. Pages the analytics source counts most are
// added by themselves.

import { useState } from 'preact/hooks';
import { count } from '../../format';
import { href, navigate } from '../../router';
import type { ProductRow } from '../../types';
import { Field } from '../../ui/field';
import { ProductFrame } from '../../ui/product-frame';
import { Await, Empty, ErrorNote } from '../../ui/states';
import type { Column } from '../../ui/table';
import { Table } from '../../ui/table';
import { useAction, useApi } from '../../ui/use-api';
import { WindowPicker } from '../../ui/window-picker';
import { FiltersEditor } from './filters-editor';
import { FrictionCell } from './friction-cell';
import { addPage } from './requests';
import { TrafficChange } from './traffic-cell';
import type { LandingPage, LandingPageList } from './types';
import { URL_MAX } from './types';
import './pages.css';

export function PagesPage({ slug, days }: { slug: string; days: number }) {
  return (
    <ProductFrame slug={slug} tab="/pages" actions={<WindowPicker days={days} />}>
      {(product) => <PagesBody product={product} days={days} />}
    </ProductFrame>
  );
}

function PagesBody({ product, days }: { product: ProductRow; days: number }) {
  const slug = product.slug;
  const loaded = useApi<LandingPageList>(`/products/${encodeURIComponent(slug)}/landing-pages?days=${days}`);
  return (
    <Await loaded={loaded} what="Loading the landing pages">
      {(list) => (
        <div class="landing-pages" data-window={list.window_days}>
          <section aria-labelledby="landing-list-title">
            <h2 id="landing-list-title">Landing pages</h2>
            <p class="muted">
              Visits in the last {list.window_days} days against the {list.window_days} days before.
            </p>
            {list.pages.length === 0 ? (
              <Empty title="No landing pages yet">
                <p>Add a page by its URL below, or connect web analytics: its busiest landing pages show up here.</p>
              </Empty>
            ) : (
              <PagesTable slug={slug} pages={list.pages} />
            )}
            <AddPage product={product} onAdded={loaded.reload} />
          </section>
          <section aria-labelledby="landing-filters-title">
            <h2 id="landing-filters-title">Exclude filters</h2>
            <FiltersEditor slug={slug} filters={list.filters} onChanged={loaded.reload} />
          </section>
        </div>
      )}
    </Await>
  );
}

function PagesTable({ slug, pages }: { slug: string; pages: LandingPage[] }) {
  const columns: Column<LandingPage>[] = [
    {
      title: 'Page',
      cell: (page) => (
        <>
          <a href={href(`/p/${slug}/pages/${page.id}`)}>{page.path}</a>
          {page.is_excluded && <span class="badge muted"> excluded</span>}
        </>
      ),
    },
    { title: 'Source', cell: (page) => page.source },
    { title: 'Visits', numeric: true, cell: (page) => count(page.traffic.visits) },
    { title: 'Before', numeric: true, cell: (page) => count(page.traffic.previous_visits) },
    { title: 'Change', numeric: true, cell: (page) => <TrafficChange traffic={page.traffic} /> },
    { title: 'Rage / dead / errors', numeric: true, cell: (page) => <FrictionCell friction={page.friction} /> },
    {
      title: 'Score',
      numeric: true,
      cell: (page) =>
        page.latest_analysis?.overall_score === null || page.latest_analysis === null
          ? '—'
          : String(page.latest_analysis.overall_score),
    },
  ];
  return <Table columns={columns} rows={pages} rowKey={(page) => page.path} />;
}

function AddPage({ product, onAdded }: { product: ProductRow; onAdded: () => void }) {
  const [url, setUrl] = useState('');
  const add = useAction(async () => {
    const page = await addPage(product.slug, url.trim());
    setUrl('');
    onAdded();
    return page;
  });
  const hint = product.domain
    ? `An http(s) address on ${product.domain} or one of its subdomains.`
    : 'An http(s) address.';
  return (
    <form
      class="add-page"
      aria-label="Add a page"
      onSubmit={(event) => {
        event.preventDefault();
        void add.run().then((page) => {
          if (page) navigate(`/p/${product.slug}/pages/${page.id}`);
        });
      }}
    >
      <Field
        label="Page URL"
        name="url"
        type="url"
        required
        maxLength={URL_MAX}
        placeholder={`https://${product.domain ?? 'example.com'}/pricing`}
        hint={hint}
        value={url}
        onInput={(e) => setUrl((e.currentTarget as HTMLInputElement).value)}
      />
      <button type="submit" aria-busy={add.busy} disabled={add.busy}>
        Add page
      </button>
      <ErrorNote error={add.error} />
    </form>
  );
}
