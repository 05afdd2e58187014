// `#/p/:slug/recordings`: the session recordings the product's replay sources sampled, newest
// first, as links to play them in the vendor's app (never video here), narrowed by signal (rage
// click, dead click, JavaScript error); and the link to the replay tool's own list. Without a
// replay source, it says what to connect.

import { href } from '../../router';
import type { ProductRow } from '../../types';
import { when } from '../../format';
import { ProductFrame } from '../../ui/product-frame';
import { Await, Empty } from '../../ui/states';
import { Table } from '../../ui/table';
import { useApi } from '../../ui/use-api';
import { WindowPicker } from '../../ui/window-picker';
import type { Recording, RecordingsReport } from './types';

/** The signals a recording may carry, as the filter offers them. */
const SIGNALS: readonly { word: string; label: string }[] = [
  { word: 'rage_click', label: 'Rage clicks' },
  { word: 'dead_click', label: 'Dead clicks' },
  { word: 'js_error', label: 'JavaScript errors' },
];

export function RecordingsPage({ slug, days, signal }: { slug: string; days: number; signal: string | null }) {
  return (
    <ProductFrame slug={slug} tab="/recordings" actions={<WindowPicker days={days} />}>
      {(product) => <RecordingsBody product={product} days={days} signal={signal} />}
    </ProductFrame>
  );
}

function RecordingsBody({ product, days, signal }: { product: ProductRow; days: number; signal: string | null }) {
  const slug = encodeURIComponent(product.slug);
  const filter = signal ? `&signal=${encodeURIComponent(signal)}` : '';
  const report = useApi<RecordingsReport>(`/products/${slug}/recordings?days=${days}${filter}`);
  return (
    <Await loaded={report} what="Loading recordings">
      {(answer) => <RecordingsView report={answer} slug={product.slug} days={days} signal={signal} />}
    </Await>
  );
}

function RecordingsView({
  report,
  slug,
  days,
  signal,
}: {
  report: RecordingsReport;
  slug: string;
  days: number;
  signal: string | null;
}) {
  if (report.sources.length === 0) {
    return (
      <Empty title="No session replay connected">
        <p>
          Connect Microsoft Clarity or PostHog on the <a href={href(`/p/${slug}/connections`)}>Connections</a> page:
          recordings to watch, and where visitors rage-click or hit errors, show up here after their first run.
        </p>
      </Empty>
    );
  }
  const base = `/p/${slug}/recordings?days=${days}`;
  return (
    <div class="recordings" data-window={report.window_days}>
      <nav aria-label="Signal" class="filters">
        <a href={href(base)} aria-current={signal === null ? 'page' : undefined}>
          All
        </a>
        {SIGNALS.map((option) => (
          <a
            key={option.word}
            href={href(`${base}&signal=${option.word}`)}
            aria-current={signal === option.word ? 'page' : undefined}
          >
            {option.label}
          </a>
        ))}
      </nav>
      {report.recordings_url && (
        <p>
          <a href={report.recordings_url} target="_blank" rel="noopener noreferrer" data-recordings-url>
            All recordings in the replay tool
          </a>
        </p>
      )}
      {report.recordings.length === 0 ? (
        <Empty title={`No sampled recordings in the last ${report.window_days} days`} />
      ) : (
        <Table<Recording>
          caption="Recordings, newest first"
          rows={report.recordings}
          rowKey={(row) => `${row.provider}:${row.id}`}
          columns={[
            { title: 'Started', cell: (row) => when(row.started_at) },
            { title: 'Page', cell: (row) => row.path ?? '—' },
            { title: 'Length', numeric: true, cell: (row) => `${row.duration_s} s` },
            { title: 'Signals', cell: (row) => row.signals.map(signalLabel).join(', ') || '—' },
            {
              title: 'Watch',
              cell: (row) => (
                <a href={row.url} target="_blank" rel="noopener noreferrer" data-recording={row.id}>
                  Play
                </a>
              ),
            },
          ]}
        />
      )}
    </div>
  );
}

function signalLabel(word: string): string {
  return SIGNALS.find((option) => option.word === word)?.label ?? word;
}
