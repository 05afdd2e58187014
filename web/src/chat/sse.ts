// Server-sent events read from a fetch body. EventSource cannot POST a conversation nor send a
// bearer, so the panel reads the stream itself; this follows the event-stream format of the
// HTML standard (lines end in CRLF, LF or CR; `event:` names the event, `data:` lines are joined
// with newlines, one leading space after the colon is dropped, lines starting with `:` are
// comments such as keep-alives, a blank line dispatches; an event without data is dropped).

export interface ServerSentEvent {
  /** `message` when the event named none. */
  event: string;
  data: string;
}

/** Turns text chunks into events; feed it every chunk, then `end()`. */
export class EventStreamParser {
  private buffer = '';
  /** A chunk ended on CR: an LF opening the next one belongs to that line ending. */
  private pendingCr = false;
  private event = '';
  private data: string[] = [];

  constructor(private readonly dispatch: (event: ServerSentEvent) => void) {}

  push(chunk: string) {
    let text = chunk;
    if (this.pendingCr && text.startsWith('\n')) text = text.slice(1);
    this.pendingCr = false;
    this.buffer += text;
    for (;;) {
      const end = this.buffer.search(/[\r\n]/);
      if (end < 0) return;
      const line = this.buffer.slice(0, end);
      let next = end + 1;
      if (this.buffer[end] === '\r') {
        if (end + 1 === this.buffer.length) this.pendingCr = true;
        else if (this.buffer[end + 1] === '\n') next += 1;
      }
      this.buffer = this.buffer.slice(next);
      this.line(line);
    }
  }

  /** The stream ended: an event not followed by a blank line is incomplete and dropped. */
  end() {
    this.buffer = '';
    this.event = '';
    this.data = [];
  }

  private line(line: string) {
    if (line === '') {
      if (this.data.length > 0) this.dispatch({ event: this.event || 'message', data: this.data.join('\n') });
      this.event = '';
      this.data = [];
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.event = value;
    else if (field === 'data') this.data.push(value);
    // `id` and `retry` matter only to a reconnecting EventSource; this stream is read once.
  }
}

/** Reads `body` to its end, handing each event to `onEvent` as it completes. */
export async function readEventStream(
  body: ReadableStream<Uint8Array>,
  onEvent: (event: ServerSentEvent) => void,
): Promise<void> {
  const parser = new EventStreamParser(onEvent);
  // `stream: true` keeps a character split across two chunks whole.
  const decoder = new TextDecoder();
  const reader = body.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    parser.push(decoder.decode(value, { stream: true }));
  }
  parser.push(decoder.decode());
  parser.end();
}
