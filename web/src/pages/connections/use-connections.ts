// The connection inventory, kept fresh while something is running: GET /connections again every
// 2 s while any shown connection is syncing, or while a "Sync now" this page started has not
// finished yet. Polling stops when the page unmounts.

import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { useApi } from '../../ui/use-api';
import type { Loaded } from '../../ui/use-api';
import type { Connection } from './types';

const POLL_MS = 2_000;
/** A started run is given up on (polling stops) after this long without an outcome. */
const WATCH_LIMIT_MS = 5 * 60_000;

/** A sync this page started: the connection as it was before, to see when the run has ended. */
interface Watched {
  id: string;
  lastSyncAt: string | null;
  since: number;
  /** Only answers after this one tell whether the run has ended. */
  afterAnswer: number;
}

export interface ConnectionsState extends Loaded<Connection[]> {
  /** Starts watching `connection` after a sync was started for it. */
  watch: (connection: Connection) => void;
}

/** Has the run started for `watched` ended? Success moves `last_sync_at`; a failure reschedules. */
function finished(watched: Watched, connection: Connection | undefined, now: number): boolean {
  if (!connection) return true; // disconnected meanwhile
  if (connection.syncing) return false;
  if (connection.last_sync_at !== watched.lastSyncAt) return true;
  // "Sync now" makes the connection due at once; a finished run, failed or not, pushes
  // `next_sync_at` into the future (the next hourly run, or the backoff).
  const next = connection.next_sync_at ? Date.parse(connection.next_sync_at) : Number.NaN;
  return Number.isFinite(next) && next > now + 30_000;
}

/** `filter` narrows the rows (one product's); polling only looks at the rows kept. */
export function useConnections(filter?: (connection: Connection) => boolean): ConnectionsState {
  const loaded = useApi<Connection[]>('/connections');
  const { reload } = loaded;
  const [watched, setWatched] = useState<Watched[]>([]);
  const rows = loaded.data === null ? null : filter ? loaded.data.filter(filter) : loaded.data;

  // Counts answers, so a watch is judged only on rows read after the sync was started.
  const answers = useRef({ data: null as Connection[] | null, count: 0 });
  if (loaded.data !== answers.current.data) answers.current = { data: loaded.data, count: answers.current.count + 1 };
  const answerCount = answers.current.count;

  const watch = useCallback(
    (connection: Connection) => {
      setWatched((list) => [
        ...list.filter((w) => w.id !== connection.id),
        { id: connection.id, lastSyncAt: connection.last_sync_at, since: Date.now(), afterAnswer: answers.current.count },
      ]);
      // A fresh read at once; useApi drops any answer to a request sent before this one.
      reload();
    },
    [reload],
  );

  // Drop watches whose run has ended (or that waited too long) each time fresh rows arrive.
  useEffect(() => {
    if (rows === null || watched.length === 0) return;
    const now = Date.now();
    const open = watched.filter((w) => {
      if (now - w.since >= WATCH_LIMIT_MS) return false;
      if (answerCount <= w.afterAnswer) return true;
      return !finished(w, rows.find((c) => c.id === w.id), now);
    });
    if (open.length !== watched.length) setWatched(open);
  }, [rows, watched, answerCount]);

  const anySyncing = rows?.some((c) => c.syncing) ?? false;
  const busy = anySyncing || watched.length > 0;
  useEffect(() => {
    // One timer per answer: the next poll is scheduled only once the previous one came back.
    if (!busy || loaded.loading) return;
    const timer = window.setTimeout(reload, POLL_MS);
    return () => window.clearTimeout(timer);
  }, [busy, loaded.loading, loaded.data, reload]);

  return { ...loaded, data: rows, watch };
}
