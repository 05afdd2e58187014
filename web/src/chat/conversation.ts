// The conversations the panel shows, one per scope (the portfolio, or a product), kept for the
// life of the page so a conversation follows the person from tab to tab of a product and an
// answer still streaming when they switch keeps arriving. Each assistant turn keeps its parts
// in the order they happened: tool calls and runs of reply text.

import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../api';
import { chatPath, streamChat } from './client';
import type { ChatAnswer, ChatMessage, SuggestedAction, ToolCallRecord } from './types';
import { MAX_CONTENT_CHARS, MAX_MESSAGES, MAX_SECTION_CHARS } from './types';

/** A piece of an assistant turn, in the order it arrived. */
export type Part = { kind: 'text'; text: string } | { kind: 'tool'; call: ToolCallRecord };

/** Why a turn failed: the service's words, and whether it is the unconfigured assistant. */
export interface TurnFailure {
  message: string;
  unconfigured: boolean;
}

export type Turn =
  | { role: 'user'; text: string }
  | {
      role: 'assistant';
      parts: Part[];
      actions: SuggestedAction[];
      /** Set once `done` arrived. */
      answer: ChatAnswer | null;
      failure: TurnFailure | null;
    };

export type AssistantTurn = Extract<Turn, { role: 'assistant' }>;

export interface ConversationState {
  turns: Turn[];
  /** An answer is on its way. */
  busy: boolean;
  /** The panel is open (it stays open across the scope's pages). */
  open: boolean;
}

const empty: ConversationState = { turns: [], busy: false, open: false };
const conversations = new Map<string, ConversationState>();
const listeners = new Set<() => void>();

/** The key of a scope: a product's slug, or `''` for the portfolio. */
function key(slug: string | null): string {
  return slug ?? '';
}

function read(slug: string | null): ConversationState {
  return conversations.get(key(slug)) ?? empty;
}

function write(slug: string | null, change: (state: ConversationState) => ConversationState) {
  conversations.set(key(slug), change(read(slug)));
  for (const listener of listeners) listener();
}

/** Replaces the last turn (the assistant's, being answered) with `change(it)`. */
function updateAnswer(slug: string | null, change: (turn: AssistantTurn) => AssistantTurn) {
  write(slug, (state) => {
    const last = state.turns[state.turns.length - 1];
    if (!last || last.role !== 'assistant') return state;
    return { ...state, turns: [...state.turns.slice(0, -1), change(last)] };
  });
}

/** The conversation of `slug` (null: the portfolio), kept current. */
export function useConversation(slug: string | null): ConversationState {
  const [state, setState] = useState(() => read(slug));
  useEffect(() => {
    const update = () => setState(read(slug));
    update();
    listeners.add(update);
    return () => {
      listeners.delete(update);
    };
  }, [slug]);
  return state;
}

export function setOpen(slug: string | null, open: boolean) {
  write(slug, (state) => ({ ...state, open }));
}

/** Forgets the conversation (not while an answer streams). */
export function clear(slug: string | null) {
  write(slug, (state) => (state.busy ? state : { ...state, turns: [] }));
}

/** The reply text of an assistant turn: the final reply once done, else what streamed. */
export function replyText(turn: AssistantTurn): string {
  if (turn.answer) return turn.answer.reply;
  return turn.parts.map((part) => (part.kind === 'text' ? part.text : '')).join('');
}

/**
 * What the server is sent: the conversation as user and assistant messages (a failed turn
 * with no text left out, since empty content is refused), each within the content limit, the
 * newest within the message limit, starting with the person's.
 */
export function messagesOf(turns: Turn[]): ChatMessage[] {
  const messages: ChatMessage[] = [];
  for (const turn of turns) {
    const content = turn.role === 'user' ? turn.text : replyText(turn);
    if (content.trim() === '') continue;
    messages.push({ role: turn.role, content: content.slice(0, MAX_CONTENT_CHARS) });
  }
  let recent = messages.slice(-MAX_MESSAGES);
  while (recent.length > 1 && recent[0].role !== 'user') recent = recent.slice(1);
  return recent;
}

function failureOf(error: unknown): TurnFailure {
  if (error instanceof ApiError) return { message: error.message, unconfigured: error.status === 503 };
  return { message: error instanceof Error ? error.message : String(error), unconfigured: false };
}

/**
 * Sends `question` in the conversation of `slug` (null: the portfolio) from the page `section`,
 * streaming the answer into the conversation.
 */
export async function ask(slug: string | null, section: string, question: string): Promise<void> {
  const text = question.trim();
  if (text === '' || read(slug).busy) return;
  const turns: Turn[] = [...read(slug).turns, { role: 'user', text }];
  const answering: AssistantTurn = { role: 'assistant', parts: [], actions: [], answer: null, failure: null };
  write(slug, (state) => ({ ...state, busy: true, turns: [...turns, answering] }));
  try {
    await streamChat(
      chatPath(slug),
      // A page without a name (none today) sends no section rather than an empty one.
      { messages: messagesOf(turns), section: section.trim() === '' ? undefined : section.slice(0, MAX_SECTION_CHARS) },
      (event) => {
        switch (event.kind) {
          case 'tool':
            updateAnswer(slug, (turn) => ({ ...turn, parts: [...turn.parts, { kind: 'tool', call: event.call }] }));
            break;
          case 'delta':
            updateAnswer(slug, (turn) => ({ ...turn, parts: appendText(turn.parts, event.text) }));
            break;
          case 'done':
            updateAnswer(slug, (turn) => ({ ...turn, answer: event.answer, actions: event.answer.suggested_actions }));
            break;
          case 'error':
            updateAnswer(slug, (turn) => ({
              ...turn,
              failure: { message: event.error, unconfigured: event.status === 503 },
            }));
            break;
        }
      },
    );
  } catch (error) {
    updateAnswer(slug, (turn) => ({ ...turn, failure: failureOf(error) }));
  } finally {
    write(slug, (state) => ({ ...state, busy: false }));
  }
}

/** Adds streamed text to the run of text it continues, or starts a run after a tool call. */
function appendText(parts: Part[], text: string): Part[] {
  const last = parts[parts.length - 1];
  if (last && last.kind === 'text') return [...parts.slice(0, -1), { kind: 'text', text: last.text + text }];
  return [...parts, { kind: 'text', text }];
}
