// `#/p/:slug/conversions`: which events count as conversions and what each is worth, with the
// form to add or change one, and how each did this window against the one before.

import { useState } from 'preact/hooks';
import type { ProductRow } from '../../types';
import { ProductFrame } from '../../ui/product-frame';
import { Await, Empty } from '../../ui/states';
import { useApi } from '../../ui/use-api';
import { ConversionForm } from './conversion-form';
import { ConversionList } from './conversion-list';
import { ConversionReportView } from './conversion-report';
import type { Conversion, ConversionReport, ListedConversion } from './types';
import { WindowPicker } from '../../ui/window-picker';

export function ConversionsPage({ slug, days }: { slug: string; days: number }) {
  return (
    <ProductFrame slug={slug} tab="/conversions" actions={<WindowPicker days={days} />}>
      {(product) => <ConversionsBody product={product} days={days} />}
    </ProductFrame>
  );
}

function ConversionsBody({ product, days }: { product: ProductRow; days: number }) {
  const base = `/products/${encodeURIComponent(product.slug)}`;
  const list = useApi<{ conversions: ListedConversion[] }>(`${base}/conversions`);
  const report = useApi<ConversionReport>(`${base}/conversions/report?days=${days}`);
  const [editing, setEditing] = useState<Conversion | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  // Bumped after each save so the new-conversion form starts empty again.
  const [formGeneration, setFormGeneration] = useState(0);

  const changed = (message: string) => {
    setNotice(message);
    list.reload();
    report.reload();
  };

  return (
    <>
      <p>
        A conversion counts the events of one stage (optionally with one event name) and gives them a value in{' '}
        {product.currency}; the oldest active primary one is the goal Attribution measures against.
      </p>
      <section aria-labelledby="conversion-definitions-title">
        <h2 id="conversion-definitions-title">Definitions</h2>
        <Await loaded={list} what="Loading the conversions">
          {({ conversions }) =>
            conversions.length === 0 ? (
              <Empty title="No conversions defined yet">
                <p>Add one below, for example a trial signup (stage signup) or a purchase (stage converted).</p>
              </Empty>
            ) : (
              <ConversionList
                slug={product.slug}
                currency={product.currency}
                conversions={conversions}
                onEdit={(conversion) => {
                  setNotice(null);
                  setEditing(conversion);
                  document.getElementById('conversion-form')?.scrollIntoView({ block: 'start' });
                }}
                onDeleted={(key) => {
                  if (editing?.key === key) setEditing(null);
                  changed(`Deleted ${key}.`);
                }}
              />
            )
          }
        </Await>
        {notice && (
          <p role="status" class="trend-up">
            {notice}
          </p>
        )}
      </section>
      <article id="conversion-form">
        <ConversionForm
          key={editing ? `edit-${editing.key}-${editing.updated_at}` : `new-${formGeneration}`}
          slug={product.slug}
          currency={product.currency}
          editing={editing}
          onSaved={(saved) => {
            setEditing(null);
            setFormGeneration((n) => n + 1);
            changed(`Saved ${saved.label} (${saved.key}).`);
          }}
          onCancel={() => setEditing(null)}
        />
      </article>
      <section aria-labelledby="conversion-report-title">
        <h2 id="conversion-report-title">Report</h2>
        <p class="muted">Active conversions in the last {days} days against the {days} days before.</p>
        <Await loaded={report} what="Loading the report">
          {(answer) =>
            answer.conversions.length === 0 ? (
              <p class="muted">No active conversions to report. Define one above.</p>
            ) : (
              <ConversionReportView entries={answer.conversions} currency={product.currency} days={answer.window_days} />
            )
          }
        </Await>
      </section>
    </>
  );
}
