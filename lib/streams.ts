import { ApiError } from "./errors.ts";
import type { AppEnv } from "./http.ts";

/**
 * What a stream may hold for a client that has not read it (≈ 70 /live snapshots); past it the
 * stream is dropped. A client that reads nothing (its TCP window kept shut) would otherwise have
 * every change queued in this process for as long as it stays connected.
 */
export const MAX_UNREAD_BYTES = 64 * 1024;

/**
 * Resolves once the request's connection is done with: its response delivered, or its client
 * gone (Deno.serve's `completed`; elsewhere, as for app.request in tests, the request's signal).
 */
export function connectionEnded(c: { env: AppEnv["Bindings"]; req: { raw: Request } }): Promise<void> {
  const completed = c.env?.completed;
  if (completed) return completed.then(() => {}, () => {});
  const signal = c.req.raw.signal;
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener("abort", () => resolve(), { once: true });
  });
}

/**
 * An event stream's response: never cached or buffered by a proxy. `open`: readable from any
 * origin (the public streams; the dashboard's feed stays same-origin).
 */
export function sseResponse(body: ReadableStream<Uint8Array>, open: boolean): Response {
  const headers: Record<string, string> = {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-store",
    "x-accel-buffering": "no",
  };
  if (open) headers["access-control-allow-origin"] = "*";
  return new Response(body, { headers });
}

/**
 * Gives a stream's places back (`give`: the process's, and its address's or account's), once.
 * Served by Deno.serve, only when its connection is done with (its last byte handed to the
 * client's socket, or the client gone), however the stream ended: Deno holds a connection whose
 * writes wait for the client, so places given back at the stream's end could pile up such
 * connections without limit. Without a connection (the app called directly) at `release()`, or,
 * after `dropped()` (a client that reads nothing), when the request is aborted. `gone`: runs
 * when the connection is done with, before the places go.
 */
export function placesUntilGone(
  c: Parameters<typeof connectionEnded>[0],
  give: () => void,
  gone?: () => void,
): { release: () => void; dropped: () => void } {
  let released = false;
  let heldUntilGone = c.env?.completed !== undefined;
  const release = () => {
    if (released || heldUntilGone) return;
    released = true;
    give();
  };
  void connectionEnded(c).then(() => {
    heldUntilGone = false;
    gone?.();
    release();
  });
  return { release, dropped: () => void (heldUntilGone = true) };
}

/**
 * The event streams (SSE) this process holds open. A stream never ends by itself, so a graceful
 * shutdown would wait for every browser to leave while its pages stayed "live" on a dying
 * process: shutdown ends them all first, and each EventSource reconnects (its `retry:`) to
 * whichever process serves next.
 */
export class OpenStreams {
  #ends = new Set<() => void>();
  #closed = false;
  #held = 0;

  /**
   * The public live streams (a timer's /live/:id, a rundown stage's /live/r/:id) open per client
   * address, counted together: one budget per address, whichever kind it opens.
   */
  readonly perAddress: PerAddress;

  /**
   * `max`: streams of every kind (viewers' /live, dashboard feeds) this process holds at once;
   * `perAddress`: public live streams one address may hold (LIVE_STREAMS_PER_IP).
   */
  constructor(readonly max = Infinity, perAddress = Infinity) {
    this.perAddress = new PerAddress(perAddress);
  }

  /**
   * Takes one of the process's stream places, or null when all are held. The returned release
   * gives it back (once, however often it is called).
   */
  hold(): (() => void) | null {
    if (this.#held >= this.max) return null;
    this.#held++;
    let held = true;
    return () => {
      if (held) this.#held--;
      held = false;
    };
  }

  /**
   * Registers how to end one open stream (close it and release what it holds); returns the
   * unregister, for a stream that ends by itself. Once shutdown began, a new stream ends at once.
   */
  add(end: () => void): () => void {
    if (this.#closed) {
      queueMicrotask(end);
      return () => {};
    }
    this.#ends.add(end);
    return () => this.#ends.delete(end);
  }

  /** Ends every open stream and every stream opened from now on. */
  endAll(): void {
    this.#closed = true;
    const ends = [...this.#ends];
    this.#ends.clear();
    for (const end of ends) {
      try {
        end();
      } catch { /* one stream's failure must not keep the others open */ }
    }
  }

  /** How many streams are open. */
  get size(): number {
    return this.#ends.size;
  }
}

/**
 * Streams held open per client address (an IPv6 /64 counted as one, see addressBucket): `take`
 * answers the release of a place, or null when the address holds `max` already.
 */
export class PerAddress {
  #open = new Map<string, number>();

  constructor(readonly max: number) {}

  take(address: string): (() => void) | null {
    const held = this.#open.get(address) ?? 0;
    if (held >= this.max) return null;
    this.#open.set(address, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const n = (this.#open.get(address) ?? 1) - 1;
      if (n > 0) this.#open.set(address, n);
      else this.#open.delete(address);
    };
  }
}

/** The answer when an address holds its limit of streams. */
export function tooManyStreams(max: number): ApiError {
  return new ApiError(
    429,
    `at most ${max} live streams may be open at once from one address; close one and retry`,
    undefined,
    { "Retry-After": "5" },
  );
}

/** The answer when every stream place of the process is held. */
export function streamsFull(max: number): ApiError {
  return new ApiError(503, `this server holds its limit of ${max} live streams; retry shortly`, undefined, {
    "Retry-After": "5",
  });
}
