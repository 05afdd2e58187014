// Loading data for a page: one hook that fetches, re-fetches when the path changes, and says
// whether it is loading or why it failed, so every page shows the same three states.

import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError } from '../api';

export interface Loaded<T> {
  data: T | null;
  error: ApiError | null;
  loading: boolean;
  /** Fetches again, keeping the current data on screen meanwhile. */
  reload: () => void;
}

/** GETs `path` (null waits); a later path wins over an answer still in flight. */
export function useApi<T>(path: string | null): Loaded<T> {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [loading, setLoading] = useState(path !== null);
  const [generation, setGeneration] = useState(0);
  const latest = useRef(0);

  useEffect(() => {
    if (path === null) return;
    const ticket = ++latest.current;
    setLoading(true);
    api
      .get<T>(path)
      .then((answer) => {
        if (ticket !== latest.current) return;
        setData(answer);
        setError(null);
      })
      .catch((failure: unknown) => {
        if (ticket !== latest.current) return;
        setError(failure instanceof ApiError ? failure : new ApiError(0, String(failure), null));
      })
      .finally(() => {
        if (ticket === latest.current) setLoading(false);
      });
  }, [path, generation]);

  const reload = useCallback(() => setGeneration((n) => n + 1), []);
  return { data, error, loading, reload };
}

/**
 * Runs a write (form submit, button) with a busy flag and the server's error kept for display
 * next to the control that caused it.
 */
export function useAction<A extends unknown[], R>(action: (...args: A) => Promise<R>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = useCallback(
    async (...args: A): Promise<R | undefined> => {
      setBusy(true);
      setError(null);
      try {
        return await action(...args);
      } catch (failure) {
        setError(failure instanceof Error ? failure.message : String(failure));
        return undefined;
      } finally {
        setBusy(false);
      }
    },
    [action],
  );
  return { run, busy, error, setError };
}
