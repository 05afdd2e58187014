// Data for widgets: several widgets on one grid often read the same report (two timeseries
// widgets, two breakdowns), so the grid keeps one request per path and every widget that
// needs it shares the answer.

import { createContext } from 'preact';
import type { ComponentChildren } from 'preact';
import { useContext, useEffect, useMemo, useState } from 'preact/hooks';
import { api, ApiError } from '../api';

type Requests = Map<string, Promise<unknown>>;

const RequestsContext = createContext<Requests | null>(null);

/** One cache per grid render; a new `generation` (a reload) starts a fresh one. */
export function WidgetDataProvider({ generation, children }: { generation: unknown; children: ComponentChildren }) {
  const requests = useMemo<Requests>(() => new Map(), [generation]);
  return <RequestsContext.Provider value={requests}>{children}</RequestsContext.Provider>;
}

export interface WidgetData<T> {
  data: T | null;
  error: ApiError | null;
}

function asApiError(failure: unknown): ApiError {
  return failure instanceof ApiError ? failure : new ApiError(0, String(failure), null);
}

/** GETs `path` once per grid; widgets outside a grid fetch on their own. */
export function useWidgetData<T>(path: string): WidgetData<T> {
  const requests = useContext(RequestsContext);
  const [state, setState] = useState<WidgetData<T>>({ data: null, error: null });

  useEffect(() => {
    let current = true;
    let request = requests?.get(path) as Promise<T> | undefined;
    if (!request) {
      request = api.get<T>(path);
      requests?.set(path, request);
    }
    request.then(
      (data) => current && setState({ data, error: null }),
      (failure: unknown) => current && setState({ data: null, error: asApiError(failure) }),
    );
    return () => {
      current = false;
    };
  }, [requests, path]);

  return state;
}
