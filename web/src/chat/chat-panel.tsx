// The assistant, on every product page and on the portfolio: a button opening a side panel
// where the person asks about their numbers. The answer streams in as it is written; each tool
// the assistant calls shows as a chip the moment it runs ("read attribution", "raised a
// proposal"), and what it leaves to a human comes as links (a raised proposal: its card in the
// queue). The assistant can only read and propose; nothing here changes spend.

import { useEffect, useRef, useState } from 'preact/hooks';
import type { AssistantTurn, Part, Turn } from './conversation';
import { ask, clear, replyText, setOpen, useConversation } from './conversation';
import { toolWords } from './tool-words';
import { MAX_CONTENT_CHARS } from './types';
import './chat.css';

export function ChatPanel({
  slug,
  section,
}: {
  /** The product the conversation is about; null on the portfolio. */
  slug: string | null;
  /** The page the person is on (e.g. `attribution`), told to the assistant. */
  section: string;
}) {
  const state = useConversation(slug);
  const input = useRef<HTMLTextAreaElement>(null);
  const log = useRef<HTMLOListElement>(null);
  const [draft, setDraft] = useState('');

  // Focus the input when the person opens the panel, not when a page mounts it already open
  // (moving between a product's tabs keeps it open and should not take the focus).
  const wasOpen = useRef(state.open);
  useEffect(() => {
    if (state.open && !wasOpen.current) input.current?.focus();
    wasOpen.current = state.open;
  }, [state.open]);
  // Keep the newest words in view as they stream in.
  useEffect(() => {
    const element = log.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [state.turns]);

  if (!state.open) {
    return (
      <button
        type="button"
        class="chat-toggle"
        aria-expanded="false"
        aria-controls="chat-panel"
        onClick={() => setOpen(slug, true)}
      >
        Ask the assistant
      </button>
    );
  }

  const send = (event?: Event) => {
    event?.preventDefault();
    if (state.busy || draft.trim() === '') return;
    const question = draft;
    setDraft('');
    void ask(slug, section, question);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    // Enter sends; Shift+Enter starts a new line.
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) send(event);
  };

  return (
    <aside
      id="chat-panel"
      class="chat-panel"
      aria-label="Assistant"
      onKeyDown={(event) => {
        if (event.key === 'Escape') setOpen(slug, false);
      }}
    >
      <header class="chat-head">
        <strong>Assistant</strong>
        <small class="muted">{slug === null ? 'All products' : slug}</small>
        <span class="chat-head-actions">
          <button
            type="button"
            class="outline secondary small"
            onClick={() => clear(slug)}
            disabled={state.busy || state.turns.length === 0}
          >
            New conversation
          </button>
          <button
            type="button"
            class="outline secondary small"
            aria-expanded="true"
            aria-controls="chat-panel"
            onClick={() => setOpen(slug, false)}
          >
            Close
          </button>
        </span>
      </header>
      <ol class="chat-log" ref={log} aria-live="polite" aria-busy={state.busy}>
        {state.turns.length === 0 && (
          <li class="chat-intro muted">
            Ask about {slug === null ? 'your products' : 'this product'}: what a channel costs, what pays back, where to
            spend. The assistant reads your reports and may propose a spend change; a person approves it in the queue.
          </li>
        )}
        {state.turns.map((turn, index) => (
          <TurnView key={index} turn={turn} />
        ))}
      </ol>
      <form class="chat-form" onSubmit={send}>
        <textarea
          ref={input}
          name="message"
          aria-label="Message the assistant"
          placeholder="Should Google get more budget?"
          rows={2}
          maxLength={MAX_CONTENT_CHARS}
          value={draft}
          onInput={(event) => setDraft((event.currentTarget as HTMLTextAreaElement).value)}
          onKeyDown={onKeyDown}
        />
        <button type="submit" disabled={state.busy || draft.trim() === ''} aria-busy={state.busy}>
          Send
        </button>
      </form>
    </aside>
  );
}

function TurnView({ turn }: { turn: Turn }) {
  if (turn.role === 'user') {
    return (
      <li class="chat-turn chat-user" data-turn="user">
        <p class="chat-text">{turn.text}</p>
      </li>
    );
  }
  return <AnswerView turn={turn} />;
}

function AnswerView({ turn }: { turn: AssistantTurn }) {
  const streamed = turn.parts.some((part) => part.kind === 'text' && part.text.trim() !== '');
  const finished = turn.answer !== null || turn.failure !== null;
  const state = turn.failure ? 'failed' : turn.answer ? 'done' : 'streaming';
  return (
    <li class="chat-turn chat-assistant" data-turn="assistant" data-state={state}>
      {turn.parts.map((part, index) => (
        <PartView key={index} part={part} />
      ))}
      {/* A reply that came whole rather than in pieces still shows. */}
      {!streamed && turn.answer && turn.answer.reply.trim() !== '' && (
        <p class="chat-text" data-reply>
          {turn.answer.reply.trim()}
        </p>
      )}
      {!finished && <p class="muted chat-pending" aria-busy="true">Thinking…</p>}
      {turn.failure && <FailureView failure={turn.failure} />}
      {turn.actions.length > 0 && (
        <nav class="chat-actions" aria-label="Suggested actions">
          {turn.actions.map((action) => (
            <SuggestedLink key={action.href} label={action.label} target={action.href} />
          ))}
        </nav>
      )}
      {turn.answer && replyText(turn) !== '' && (
        <small class="muted chat-model" title="The model that wrote this answer">
          {turn.answer.model}
        </small>
      )}
    </li>
  );
}

function PartView({ part }: { part: Part }) {
  if (part.kind === 'text') {
    const text = part.text.trim();
    return text === '' ? null : (
      <p class="chat-text" data-reply>
        {text}
      </p>
    );
  }
  const { call } = part;
  return (
    <p
      class={`chat-tool ${call.ok ? 'chat-tool-ok' : 'chat-tool-failed'}`}
      data-tool={call.name}
      data-ok={String(call.ok)}
      title={call.summary}
    >
      <span class="chat-tool-words">{toolWords(call.name, call.ok)}</span>
      {!call.ok && <small class="chat-tool-summary">{call.summary}</small>}
    </p>
  );
}

function FailureView({ failure }: { failure: { message: string; unconfigured: boolean } }) {
  if (failure.unconfigured) {
    return (
      <div role="alert" class="error-note chat-error" data-unconfigured>
        <strong>The assistant is not configured.</strong>
        <br />
        <small>An operator turns it on by setting the model gateway key (PAYBACK_MODEL_GATEWAY_KEY).</small>
      </div>
    );
  }
  return (
    <p role="alert" class="error-note chat-error">
      {failure.message}
    </p>
  );
}

/**
 * A suggested action: a link into the dashboard. Only the dashboard's own hash routes are
 * followed; anything else is shown as words.
 */
function SuggestedLink({ label, target }: { label: string; target: string }) {
  const route = /^\/?#\//.test(target) ? target.slice(target.indexOf('#')) : null;
  if (route === null) return <span>{label}</span>;
  return (
    <a href={route} role="button" class="outline small">
      {label}
    </a>
  );
}
