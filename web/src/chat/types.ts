// The chat API's shapes (`POST /chat`, `POST /products/{slug}/chat`; docs/agents.md "Chat assistant"):
// what the dashboard sends, the final answer, and the events of a streamed answer.

/** `user` or `assistant`: the system instruction is the server's alone. */
export type ChatRole = 'user' | 'assistant';

export interface ChatMessage {
  role: ChatRole;
  content: string;
}

export interface ChatRequest {
  messages: ChatMessage[];
  stream?: boolean;
  /** The dashboard section the person is looking at, told to the model. */
  section?: string;
}

/** One call the assistant made and how it came out. */
export interface ToolCallRecord {
  name: string;
  /** The arguments as run; the model's text when it was not JSON. */
  arguments: unknown;
  ok: boolean;
  /** A short account of the result, or the error. */
  summary: string;
}

/** A link into the dashboard for what the conversation left to a human. */
export interface SuggestedAction {
  label: string;
  /** A dashboard hash route such as `/#/queue?product=shop`. */
  href: string;
}

export interface ChatAnswer {
  reply: string;
  model: string;
  tool_calls: ToolCallRecord[];
  suggested_actions: SuggestedAction[];
}

/** The events of `stream: true`, in the order they come; `done` or `error` is the last. */
export type ChatStreamEvent =
  | { kind: 'tool'; call: ToolCallRecord }
  | { kind: 'delta'; text: string }
  | { kind: 'done'; answer: ChatAnswer }
  | { kind: 'error'; error: string; status: number };

/**
 * Request limits the server enforces (40 messages of at most 8000 characters; a section of at
 * most 200); the panel keeps within them rather than have a long conversation refused.
 */
export const MAX_MESSAGES = 40;
export const MAX_CONTENT_CHARS = 8_000;
export const MAX_SECTION_CHARS = 200;
