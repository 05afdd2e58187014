// A product's distribution log: outreach people recorded (posts, newsletters, comments) and what
// each one's utm_campaign brought, plus the form to record a new entry.

import { useState } from 'preact/hooks';
import { api } from '../../api';
import { count, money, when } from '../../format';
import type { ProductRow } from '../../types';
import { Field } from '../../ui/field';
import { ProductFrame } from '../../ui/product-frame';
import { Await, Empty, ErrorNote } from '../../ui/states';
import { Table } from '../../ui/table';
import { useAction, useApi } from '../../ui/use-api';
import type { DistributionEntry, DistributionList } from './types';
import { readDays, WindowPicker } from '../../ui/window-picker';

export function DistributionPage({ slug, query }: { slug: string; query: URLSearchParams }) {
  const days = readDays(query, 3650);
  return (
    <ProductFrame slug={slug} tab="/distribution" actions={<WindowPicker days={days} />}>
      {(product) => <DistributionBody product={product} days={days} />}
    </ProductFrame>
  );
}

function DistributionBody({ product, days }: { product: ProductRow; days: number }) {
  const loaded = useApi<DistributionList>(`/products/${encodeURIComponent(product.slug)}/distribution?days=${days}`);
  return (
    <>
      <Await loaded={loaded} what="Loading the distribution log">
        {(list) =>
          list.entries.length === 0 ? (
            <Empty title={`No outreach recorded in the last ${list.window_days} days`}>
              <p>
                Record each post, newsletter or comment below with the utm_campaign its links carry; the visits, leads,
                customers and revenue it brought then show here.
              </p>
            </Empty>
          ) : (
            <EntriesTable entries={list.entries} currency={product.currency} />
          )
        }
      </Await>
      <RecordForm slug={product.slug} onRecorded={loaded.reload} />
    </>
  );
}

function EntriesTable({ entries, currency }: { entries: DistributionEntry[]; currency: string }) {
  return (
    <Table
      rows={entries}
      rowKey={(entry) => entry.id}
      caption="Newest first; results count everything the campaign brought, all time."
      columns={[
        { title: 'Recorded', cell: (e) => when(e.created_at) },
        { title: 'Channel', cell: (e) => e.channel },
        { title: 'Kind', cell: (e) => e.kind },
        { title: 'Campaign', cell: (e) => (e.utm_campaign ? <code>{e.utm_campaign}</code> : <span class="muted">none</span>) },
        {
          title: 'Link',
          cell: (e) =>
            e.url ? (
              <a href={e.url} target="_blank" rel="noopener noreferrer">
                Open
              </a>
            ) : (
              '—'
            ),
        },
        { title: 'Note', cell: (e) => e.note ?? '' },
        { title: 'By', cell: (e) => (e.created_by === 'keeper' ? 'AI agent' : e.created_by) },
        { title: 'Visits', cell: (e) => count(e.visits), numeric: true },
        { title: 'Leads', cell: (e) => count(e.leads), numeric: true },
        { title: 'Customers', cell: (e) => count(e.customers), numeric: true },
        { title: 'Revenue', cell: (e) => money(e.revenue_cents, currency), numeric: true },
      ]}
    />
  );
}

function RecordForm({ slug, onRecorded }: { slug: string; onRecorded: () => void }) {
  const [recorded, setRecorded] = useState(false);
  const record = useAction((body: unknown) => api.post<{ ok: boolean; id: string }>('/distribution', body));

  const submit = async (event: Event) => {
    event.preventDefault();
    setRecorded(false);
    const form = event.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    const text = (name: string) => {
      const value = String(data.get(name) ?? '').trim();
      return value === '' ? undefined : value;
    };
    // The wire spells these in camelCase (productSlug, utmCampaign).
    const answer = await record.run({
      productSlug: slug,
      channel: text('channel'),
      kind: text('kind'),
      url: text('url'),
      utmCampaign: text('utmCampaign'),
      note: text('note'),
    });
    if (answer) {
      form.reset();
      setRecorded(true);
      onRecorded();
    }
  };

  return (
    <section aria-labelledby="record-title">
      <h2 id="record-title">Record outreach</h2>
      <form onSubmit={submit}>
        <div class="grid">
          <Field label="Channel" name="channel" required maxLength={80} placeholder="reddit" hint="Where it went out, e.g. reddit, newsletter, hacker_news." />
          <Field label="Kind" name="kind" required maxLength={80} placeholder="post" hint="What it was, e.g. post, comment, email." />
        </div>
        <div class="grid">
          <Field label="Post URL" name="url" type="url" maxLength={2000} placeholder="https://…" hint="Optional: where to find it." />
          <Field label="utm_campaign" name="utmCampaign" maxLength={200} hint="Optional: the campaign its links carry, so traffic joins back." />
        </div>
        <label>
          Note
          <textarea name="note" maxLength={2000} rows={2} />
        </label>
        <ErrorNote error={record.error} />
        {recorded && !record.busy && (
          <p role="status" class="trend-up">
            Recorded.
          </p>
        )}
        <button type="submit" aria-busy={record.busy} disabled={record.busy}>
          Record entry
        </button>
      </form>
    </section>
  );
}
