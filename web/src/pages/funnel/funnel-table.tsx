// The funnel as a ladder: one row per step of the definition, its volume in the window and the
// share of the previous step that reached it, overall and per first-touch channel.

import { count, percent } from '../../format';
import { Table } from '../../ui/table';
import type { Column } from '../../ui/table';
import { channelName } from './stage-names';
import type { FunnelRow, FunnelStage, FunnelStep } from './types';

interface LadderRow {
  step: FunnelStep;
  total: number;
  events: number;
  /** Volume per channel key (`null` channel under the empty string). */
  byChannel: Map<string, number>;
}

const NO_CHANNEL = '';

/** Sums the stage x channel cells into one row per step, in the definition's order. */
export function ladder(steps: FunnelStep[], rows: FunnelRow[]): LadderRow[] {
  return steps.map((step) => {
    const byChannel = new Map<string, number>();
    let total = 0;
    let events = 0;
    for (const row of rows) {
      if (row.stage !== step.stage) continue;
      // Each identity has one first-touch channel, so the cells add up to the stage volume.
      total += row.volume;
      events += row.events;
      const key = row.channel ?? NO_CHANNEL;
      byChannel.set(key, (byChannel.get(key) ?? 0) + row.volume);
    }
    return { step, total, events, byChannel };
  });
}

/** Channels by their volume over the steps, largest first, the channel-less last. */
function channelsOf(rows: LadderRow[]): string[] {
  const totals = new Map<string, number>();
  for (const row of rows) {
    for (const [channel, volume] of row.byChannel) totals.set(channel, (totals.get(channel) ?? 0) + volume);
  }
  return [...totals.entries()]
    .sort(([a, x], [b, y]) => {
      if ((a === NO_CHANNEL) !== (b === NO_CHANNEL)) return a === NO_CHANNEL ? 1 : -1;
      return y - x || a.localeCompare(b);
    })
    .map(([channel]) => channel);
}

function rate(volume: number, previous: number | undefined): number | null {
  if (previous === undefined || previous === 0) return null;
  return volume / previous;
}

export function FunnelTable({ steps, rows }: { steps: FunnelStep[]; rows: FunnelRow[] }) {
  const ladderRows = ladder(steps, rows);
  const channels = channelsOf(ladderRows);
  const previousOf = (row: LadderRow) => ladderRows[ladderRows.indexOf(row) - 1];

  const columns: Column<LadderRow>[] = [
    {
      title: 'Step',
      cell: (row) => (
        <>
          <strong>{row.step.label}</strong> <small class="muted">{row.step.stage}</small>
        </>
      ),
    },
    { title: 'People', numeric: true, cell: (row) => <span data-cell="volume">{count(row.total)}</span> },
    {
      title: 'From previous step',
      numeric: true,
      cell: (row) => (previousOf(row) ? percent(rate(row.total, previousOf(row)?.total)) : 'start'),
    },
    {
      title: 'From first step',
      numeric: true,
      cell: (row) => (previousOf(row) ? percent(rate(row.total, ladderRows[0]?.total)) : 'start'),
    },
    ...channels.map(
      (channel): Column<LadderRow> => ({
        title: channelName(channel === NO_CHANNEL ? null : channel),
        numeric: true,
        cell: (row) => {
          const volume = row.byChannel.get(channel) ?? 0;
          const before = previousOf(row);
          return (
            <>
              {count(volume)}
              {before && (
                <small class="muted funnel-rate">{percent(rate(volume, before.byChannel.get(channel) ?? 0))}</small>
              )}
            </>
          );
        },
      }),
    ),
  ];

  return (
    <Table
      caption="People per step, by first-touch channel (small figures: share of the channel's previous step)"
      columns={columns}
      rows={ladderRows}
      rowKey={(row) => row.step.stage}
    />
  );
}

/** Stages that have data in the window but are not steps of the funnel. */
export function stagesOutside(steps: FunnelStep[], rows: FunnelRow[]): { stage: FunnelStage; volume: number }[] {
  const inFunnel = new Set(steps.map((s) => s.stage));
  const totals = new Map<FunnelStage, number>();
  for (const row of rows) {
    if (!inFunnel.has(row.stage)) totals.set(row.stage, (totals.get(row.stage) ?? 0) + row.volume);
  }
  return [...totals.entries()].map(([stage, volume]) => ({ stage, volume }));
}
