// Active conversions in the window against the window just before, each split by channel (the
// event's channel, else the person's first touch, else `unattributed`).

import { count, money, percent, trend } from '../../format';
import { Table } from '../../ui/table';
import type { ConversionReportEntry } from './types';

export function ConversionReportView({
  entries,
  currency,
  days,
}: {
  entries: ConversionReportEntry[];
  currency: string;
  days: number;
}) {
  return (
    <>
      {entries.map((entry) => {
        const change = trend(entry.current.count, entry.previous.count);
        return (
          <article key={entry.key} aria-labelledby={`conversion-report-${entry.key}`} data-conversion={entry.key}>
            <header>
              <h3 id={`conversion-report-${entry.key}`}>
                {entry.label} <small class="muted">{entry.tier}</small>
              </h3>
              <p>
                <strong class="metric-value">{count(entry.current.count)}</strong> in the last {days} days{' '}
                <span class={`trend-${change.direction}`} title="Against the previous window">
                  {change.text}
                </span>{' '}
                <span class="muted">
                  (previous {days} days: {count(entry.previous.count)}, {money(entry.previous.value_cents, currency)})
                </span>
              </p>
              <p>Value: {money(entry.current.value_cents, currency)}</p>
            </header>
            {entry.channels.length === 0 ? (
              <p class="muted">No conversions in this window.</p>
            ) : (
              <Table
                caption="By channel, this window"
                rows={entry.channels}
                rowKey={(row) => row.channel}
                columns={[
                  { title: 'Channel', cell: (row) => row.channel },
                  { title: 'Conversions', numeric: true, cell: (row) => count(row.count) },
                  {
                    title: 'Share',
                    numeric: true,
                    cell: (row) =>
                      percent(entry.current.count > 0 ? row.count / entry.current.count : null),
                  },
                  { title: 'Value', numeric: true, cell: (row) => money(row.value_cents, currency) },
                ]}
              />
            )}
          </article>
        );
      })}
    </>
  );
}
