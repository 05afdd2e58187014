// The recordings that started on a page's path, newest first, each a link to play it in the
// replay tool (a new tab; never video here), and the tool's own list of the path's recordings.

import { when } from '../../format';
import { Table } from '../../ui/table';
import type { PageRecording } from './types';

/** The signals a recording may carry, in words (the API's `SIGNALS`). */
const SIGNAL_WORDS: Record<string, string> = {
  rage_click: 'rage clicks',
  dead_click: 'dead clicks',
  js_error: 'script errors',
};

export function PageRecordings({
  recordings,
  recordingsUrl,
  days,
}: {
  recordings: PageRecording[];
  recordingsUrl: string | null;
  days: number;
}) {
  return (
    <section aria-labelledby="recordings-title">
      <h2 id="recordings-title">Recordings</h2>
      {recordings.length === 0 ? (
        <p class="muted" data-recordings="none">
          No sampled recordings started on this page in the last {days} days.
        </p>
      ) : (
        <Table<PageRecording>
          caption="Recordings on this page, newest first"
          rows={recordings}
          rowKey={(row) => `${row.provider}:${row.id}`}
          columns={[
            { title: 'Started', cell: (row) => when(row.started_at) },
            { title: 'Length', numeric: true, cell: (row) => `${row.duration_s} s` },
            {
              title: 'Signals',
              cell: (row) => row.signals.map((signal) => SIGNAL_WORDS[signal] ?? signal).join(', ') || '—',
            },
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
      {recordingsUrl && (
        <p>
          <a href={recordingsUrl} target="_blank" rel="noopener noreferrer" data-recordings-url>
            Watch all recordings
          </a>
        </p>
      )}
    </section>
  );
}
