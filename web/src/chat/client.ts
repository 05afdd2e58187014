// Asks the assistant with `stream: true` and hands each event over as it arrives. A status
// answered before the stream starts (503 without a gateway key, 404, 400) is an ApiError with
// the server's own words, as everywhere in the app; a failure once streaming is an `error`
// event, which the caller receives like any other.

import { ApiError } from '../api';
import { session } from '../session';
import { readEventStream } from './sse';
import type { ChatAnswer, ChatRequest, ChatStreamEvent, ToolCallRecord } from './types';

/** `POST /chat` for the portfolio, `POST /products/{slug}/chat` for one product. */
export function chatPath(slug: string | null): string {
  return slug === null ? '/chat' : `/products/${encodeURIComponent(slug)}/chat`;
}

/**
 * Streams the answer to `request` at `path`, calling `onEvent` for each event; resolves once
 * the stream ends. Rejects with an ApiError when the service refuses before streaming, cannot
 * be reached, or ends the stream without `done` or `error`.
 */
export async function streamChat(
  path: string,
  request: ChatRequest,
  onEvent: (event: ChatStreamEvent) => void,
  signal?: AbortSignal,
): Promise<void> {
  const headers: Record<string, string> = { Accept: 'text/event-stream', 'Content-Type': 'application/json' };
  const token = session.token();
  if (token) headers.Authorization = `Bearer ${token}`;
  let response: Response;
  try {
    const body = JSON.stringify({ ...request, stream: true });
    response = await fetch(path, { method: 'POST', headers, body, signal });
  } catch (failure) {
    if (signal?.aborted) throw failure;
    throw new ApiError(0, 'Payback is not answering. Is the service running?', null);
  }
  if (!response.ok || response.body === null) {
    const fields = await errorFields(response);
    // A session that expired or was revoked elsewhere: drop it so the app shows the login page.
    if (response.status === 401 && token) session.clear();
    const message = fields.error ?? `The service answered ${response.status}.`;
    throw new ApiError(response.status, message, fields.policy_code ?? null);
  }
  let finished = false;
  await readEventStream(response.body, (sse) => {
    const event = decode(sse.event, sse.data);
    if (event === null) return;
    if (event.kind === 'done' || event.kind === 'error') finished = true;
    onEvent(event);
  });
  if (!finished) throw new ApiError(0, 'The answer was cut off before it finished. Ask again.', null);
}

async function errorFields(response: Response): Promise<{ error?: string; policy_code?: string }> {
  try {
    const body: unknown = await response.json();
    return body !== null && typeof body === 'object' ? (body as { error?: string; policy_code?: string }) : {};
  } catch {
    return {};
  }
}

/** One server-sent event as a chat event; null for a name this version does not know. */
export function decode(name: string, data: string): ChatStreamEvent | null {
  const parsed = JSON.parse(data) as Record<string, unknown>;
  switch (name) {
    case 'tool':
      return { kind: 'tool', call: parsed as unknown as ToolCallRecord };
    case 'delta':
      return { kind: 'delta', text: String(parsed.text ?? '') };
    case 'done':
      return { kind: 'done', answer: parsed as unknown as ChatAnswer };
    case 'error':
      return {
        kind: 'error',
        error: String(parsed.error ?? 'The assistant failed.'),
        status: typeof parsed.status === 'number' ? parsed.status : 0,
      };
    default:
      return null;
  }
}
