// The one way the app talks to the service: same-origin JSON over fetch, the session token as a
// bearer, and every refusal turned into an ApiError carrying the server's own `error` text.

import { session } from './session';

export class ApiError extends Error {
  readonly status: number;
  /** Set on policy refusals (422/403 from proposals and approvals). */
  readonly policyCode: string | null;
  /**
   * The refusal's whole parsed JSON body (null when there was none), for the few forms that
   * read more than `error` from it: a choice the server lists beside its refusal.
   */
  readonly body: unknown;

  constructor(status: number, message: string, policyCode: string | null, body: unknown = null) {
    super(message);
    this.status = status;
    this.policyCode = policyCode;
    this.body = body;
  }
}

type Method = 'GET' | 'POST' | 'DELETE';

/**
 * Reads of a product's ingested data wait for the fold of its events at most about a second;
 * behind a burst or a backfill they answer from what is folded and say in this header how many
 * accepted events they do not count yet (0 when caught up).
 */
const PENDING_HEADER = 'X-Payback-Pending-Events';

type PendingListener = (slug: string, pending: number) => void;
const pendingListeners = new Set<PendingListener>();

/** Calls `listener` with the pending count of every product read answered; returns the unsubscribe. */
export function onPendingEvents(listener: PendingListener): () => void {
  pendingListeners.add(listener);
  return () => {
    pendingListeners.delete(listener);
  };
}

/** Passes a product read's pending count on (the portfolio's spans products: the frame shows one). */
function notePending(path: string, response: Response) {
  const header = response.headers.get(PENDING_HEADER);
  const product = /^\/products\/([^/?#]+)/.exec(path);
  if (header === null || !product) return;
  const pending = Number(header);
  if (!Number.isSafeInteger(pending) || pending < 0) return;
  const slug = decodeURIComponent(product[1]);
  for (const listener of pendingListeners) listener(slug, pending);
}

interface RequestOptions {
  /**
   * A 401 normally means the session is gone and signs the person out. Calls whose 401 means
   * something else (POST /auth/me: "current password is wrong") keep the session.
   */
  keepSessionOn401?: boolean;
}

async function request<T>(method: Method, path: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = session.token();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'Payback is not answering. Is the service running?', null);
  }
  const text = await response.text();
  const payload: unknown = text ? safeJson(text) : null;
  if (!response.ok) {
    const fields = (payload ?? {}) as { error?: string; policy_code?: string };
    // A session that expired or was revoked elsewhere: drop it so the app shows the login page.
    if (response.status === 401 && token && !options.keepSessionOn401) session.clear();
    throw new ApiError(
      response.status,
      fields.error ?? `The service answered ${response.status}.`,
      fields.policy_code ?? null,
      payload,
    );
  }
  notePending(path, response);
  return payload as T;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export const api = {
  get: <T>(path: string) => request<T>('GET', path),
  post: <T>(path: string, body: unknown = {}, options?: RequestOptions) => request<T>('POST', path, body, options),
  delete: <T>(path: string) => request<T>('DELETE', path),
};

/** Encodes query parameters, leaving out those that are undefined or empty. */
export function query(params: Record<string, string | number | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}
