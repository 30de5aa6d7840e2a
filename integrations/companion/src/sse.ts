/**
 * A Server-Sent Events client over `fetch` (Node has no EventSource), as the HTML standard's
 * parser reads a stream: lines end in CRLF, LF or CR; `event`, `data` (joined by newlines) and
 * `retry`; comments and unknown fields ignored; an event without data is not dispatched.
 */

/** One dispatched event. */
export interface SseEvent {
  event: string;
  data: string;
}

/** Feeds text chunks in, hands complete events out. */
export class SseParser {
  #buffer = "";
  #event = "";
  #data: string[] = [];
  /** The reconnection delay the server asked for (`retry:`), ms, or null. */
  retry: number | null = null;

  constructor(private readonly onEvent: (e: SseEvent) => void) {}

  /** Parses a chunk of the stream's text. */
  push(chunk: string): void {
    this.#buffer += chunk;
    for (;;) {
      const m = /\r\n|\r|\n/.exec(this.#buffer);
      if (!m) break;
      // A CR at the very end may be the first half of a CRLF still in transit.
      if (m[0] === "\r" && m.index === this.#buffer.length - 1) break;
      const line = this.#buffer.slice(0, m.index);
      this.#buffer = this.#buffer.slice(m.index + m[0].length);
      this.#line(line);
    }
  }

  #line(line: string) {
    if (line === "") {
      if (this.#data.length > 0) {
        this.onEvent({
          event: this.#event || "message",
          data: this.#data.join("\n"),
        });
      }
      this.#event = "";
      this.#data = [];
      return;
    }
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") this.#event = value;
    else if (field === "data") this.#data.push(value);
    else if (field === "retry" && /^\d+$/.test(value)) {
      this.retry = Number(value);
    }
  }
}

/** What a stream reports to its owner. */
export interface StreamHandlers {
  onEvent(e: SseEvent): void;
  /** The stream is open (HTTP 200 with an event stream). */
  onOpen(): void;
  /** The stream broke or could not open; it retries after `retryMs`. */
  onDown(reason: string, retryMs: number): void;
  /** The server answered 404: the timer is gone (or never was); no retry. */
  onGone(): void;
}

/**
 * Follows one SSE URL until closed: reconnects after a break in the server's `retry` (or 1 s);
 * an open that fails is retried after 1 s, doubling up to 30 s, back to 1 s once a stream opens.
 */
export class EventStream {
  #abort = new AbortController();
  #closed = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #delay: number;
  /** The server's `retry:`, kept across connections as the standard says. */
  #serverRetry: number | null = null;
  #done: Promise<void>;

  constructor(
    readonly url: string,
    private readonly handlers: StreamHandlers,
    private readonly opts: {
      fetch?: typeof fetch;
      firstRetryMs?: number;
      maxRetryMs?: number;
    } = {},
  ) {
    this.#delay = opts.firstRetryMs ?? 1000;
    this.#done = this.#run();
  }

  async #run(): Promise<void> {
    const doFetch = this.opts.fetch ?? fetch;
    const first = this.opts.firstRetryMs ?? 1000;
    const max = this.opts.maxRetryMs ?? 30_000;
    while (!this.#closed) {
      let reason = "the stream ended";
      let opened = false;
      try {
        const res = await doFetch(this.url, {
          headers: { accept: "text/event-stream", "cache-control": "no-store" },
          signal: this.#abort.signal,
        });
        if (res.status === 404) {
          await res.body?.cancel();
          if (!this.#closed) this.handlers.onGone();
          return;
        }
        const type = res.headers.get("content-type") ?? "";
        if (!res.ok || !type.startsWith("text/event-stream") || !res.body) {
          await res.body?.cancel();
          reason = `the live stream answered HTTP ${res.status}${res.ok ? ` (${type || "no content type"})` : ""}`;
        } else {
          opened = true;
          this.#delay = first;
          this.handlers.onOpen();
          const parser = new SseParser((e) => !this.#closed && this.handlers.onEvent(e));
          const reader = res.body.pipeThrough(new TextDecoderStream())
            .getReader();
          try {
            for (;;) {
              const { value, done } = await reader.read();
              if (done) break;
              parser.push(value);
            }
          } finally {
            this.#serverRetry = parser.retry ?? this.#serverRetry;
            reader.releaseLock();
          }
        }
      } catch (e) {
        if (this.#closed) return;
        reason = `could not reach the live stream (${e instanceof Error ? e.message : String(e)})`;
      }
      if (this.#closed) return;
      const wait = opened ? this.#serverRetry ?? first : this.#delay;
      if (!opened) this.#delay = Math.min(this.#delay * 2, max);
      this.handlers.onDown(reason, wait);
      await new Promise<void>((resolve) => {
        this.#timer = setTimeout(resolve, wait);
        this.#abort.signal.addEventListener("abort", () => resolve(), {
          once: true,
        });
      });
    }
  }

  /** Stops following: closes the open stream and cancels any retry. Resolves once all is let go. */
  close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#abort.abort();
    return this.#done.catch(() => {});
  }
}
