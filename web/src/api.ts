// The one way the app talks to the service: same-origin JSON over fetch, the session token as a
// bearer, and every refusal turned into an ApiError carrying the server's own `error` text.

import { session } from './session';

export class ApiError extends Error {
  readonly status: number;
  /** Set on policy refusals (422/403 from proposals and approvals). */
  readonly policyCode: string | null;

  constructor(status: number, message: string, policyCode: string | null) {
    super(message);
    this.status = status;
    this.policyCode = policyCode;
  }
}

type Method = 'GET' | 'POST';

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
    );
  }
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
