/**
 * Following a live timer over `GET /live/:id` (server-sent events): snapshots, clock samples,
 * reconnection with back-off, the silence watchdog and `gone`. A part of the islands that show
 * a stored timer (use_timer.ts `TimerOptions.follow`); a widget configured by its parameters
 * (islands/WidgetPlain.tsx) never loads it.
 */
import { type LiveSnapshot, type Source, sourceFromSnapshot } from "../lib/face.ts";
import { watchSilence } from "./stream_watchdog.ts";

/** What the stream changes in the timer hook. */
export interface LiveSink {
  /** The server clock offset (server time − local time), read and written. */
  offset: { current: number };
  push(src: Source): void;
  title(title: string | null): void;
  /** A snapshot arrived. */
  snapshot(): void;
  /** Recompute the frame now. */
  tick(): void;
  setReconnecting(v: boolean): void;
  setGone(v: boolean): void;
}

/** Starts following; returns the function that stops. */
export type Follow = (live: string, sink: LiveSink) => () => void;

/**
 * The clock offset from recent samples (server time − local receipt time). A sample delayed in
 * transit only ever understates it, so the largest of the last few is the best estimate.
 */
class OffsetEstimate {
  #samples: number[] = [];
  add(sample: number): number {
    this.#samples = [...this.#samples.slice(-7), sample];
    return Math.max(...this.#samples);
  }
}

export const followLive: Follow = (live, sink) => {
  const url = `/live/${encodeURIComponent(live)}`;
  let es: EventSource | null = null;
  let retry = 0;
  let delay = 1000;
  let stopped = false;
  let heard = Date.now();
  const estimate = new OffsetEstimate();
  estimate.add(sink.offset.current);
  const connect = () => {
    const source = es = new EventSource(url);
    for (const kind of ["timer", "clock"]) source.addEventListener(kind, () => heard = Date.now());
    source.addEventListener("timer", (e) => {
      const snap = JSON.parse((e as MessageEvent<string>).data) as LiveSnapshot;
      sink.offset.current = estimate.add(snap.server_now - Date.now());
      sink.push(sourceFromSnapshot(snap));
      delay = 1000;
      sink.title(snap.timer.title);
      sink.setReconnecting(false);
      sink.snapshot();
      sink.tick();
    });
    source.addEventListener("clock", (e) => {
      const { server_now } = JSON.parse((e as MessageEvent<string>).data) as { server_now: number };
      sink.offset.current = estimate.add(server_now - Date.now());
      sink.tick();
    });
    source.addEventListener("gone", () => {
      stopped = true;
      source.close();
      sink.setGone(true);
      sink.setReconnecting(false);
    });
    source.onerror = () => {
      if (stopped || source.readyState !== EventSource.CLOSED) {
        sink.setReconnecting(!stopped);
        return;
      }
      // The browser gave up (an HTTP error): find out whether the timer is gone, else retry.
      sink.setReconnecting(true);
      retry = setTimeout(check, delay) as unknown as number;
      delay = Math.min(delay * 2, 30_000);
    };
  };
  const check = async () => {
    try {
      const res = await fetch(url, { cache: "no-store" });
      await res.body?.cancel();
      if (res.status === 404) {
        sink.setGone(true);
        sink.setReconnecting(false);
        return;
      }
    } catch { /* offline: try the stream again */ }
    if (!stopped) connect();
  };
  connect();
  // A stream silent past the heartbeat died without an error: drop it and connect again.
  const unwatch = watchSilence(() => heard, () => {
    // A closed stream is already being retried (onerror).
    if (stopped || !es || es.readyState === EventSource.CLOSED) return;
    es?.close();
    sink.setReconnecting(true);
    heard = Date.now();
    connect();
  });
  return () => {
    stopped = true;
    unwatch();
    clearTimeout(retry);
    es?.close();
  };
};
