/**
 * GET /live/:id — the public push stream of one timer (Server-Sent Events fed by kv.watch).
 * It carries only what a viewer may see: never the webhook URL, the owner or any token.
 */
import type { Hono } from "hono";
import type { Config } from "../config.ts";
import { addressBucket } from "../lib/accounts/throttle.ts";
import type { AppEnv } from "../lib/http.ts";
import type { Store } from "../lib/kv/store.ts";
import {
  MAX_UNREAD_BYTES,
  type OpenStreams,
  placesUntilGone,
  sseResponse,
  streamsFull,
  tooManyStreams,
} from "../lib/streams.ts";
import { effective, nextDeadlineAfter, type Timer, timerView } from "../lib/timers/model.ts";
import { callAt } from "../lib/wait.ts";

/** What viewers receive: the public view plus the instants a display computes from. */
export function publicSnapshot(t: Timer, now: number, siteUrl: string) {
  const view = timerView(t, now, siteUrl, { owner: false });
  const e = effective(t, now);
  return {
    timer: view,
    /** Epoch ms of the server clock when this was sent: clients derive their clock offset. */
    server_now: now,
    /** When the running timer ends (countdown, event, finite interval), epoch ms; else null. */
    ends_at: endsAt(e),
    /** Active milliseconds elapsed as of `server_now` (countdown and interval). */
    elapsed_ms: e.elapsed_ms + (e.state === "running" && e.resumed_at !== null ? now - e.resumed_at : 0),
    /** Next clock transition after `server_now` (round end or completion), epoch ms, or null. */
    next_at: nextDeadlineAfter(e, now),
  };
}

function endsAt(t: Timer): number | null {
  if (t.type === "event") return Date.parse(t.target_date!);
  if (t.state !== "running" || t.resumed_at === null) return null;
  const total = t.type === "countdown" ? (t.duration ?? 0) * 1000 : t.duration === null ? null : t.duration * 1000;
  return total === null ? null : t.resumed_at + total - t.elapsed_ms;
}

const HEARTBEAT_MS = 15_000;
/** Timer ids are short; a longer one is no timer (and too long for a KV key). */
const MAX_ID_LENGTH = 64;

/** Registers the stream route. */
export function liveRoutes(
  app: Hono<AppEnv>,
  deps: { store: Store; config: Config; now: () => number; streams: OpenStreams },
) {
  app.get("/live/:id", async (c) => {
    const id = c.req.param("id");
    const first = id.length <= MAX_ID_LENGTH ? await deps.store.getTimer(id) : null;
    if (!first || first.timer.expires_at <= deps.now()) {
      // Readable by widgets in opaque-origin frames (file://, sandboxed), which learn "gone" from it.
      return c.json({ error: { code: 404, message: "timer not found or expired" } }, 404, {
        "access-control-allow-origin": "*",
      });
    }
    // Per address, counted with its rundown stage streams (/live/r/:id): one budget for both kinds.
    const mine = deps.streams.perAddress.take(addressBucket(c.get("ip")));
    if (!mine) throw tooManyStreams(deps.streams.perAddress.max);
    // Every address together: an IPv6 /48 holds 65 536 /64s, each allowed its streams (≈ 28 KB each).
    const place = deps.streams.hold();
    if (!place) {
      mine();
      throw streamsFull(deps.streams.max);
    }
    const places = placesUntilGone(c, () => {
      place();
      mine();
    });
    const enc = new TextEncoder();
    let watcher: ReadableStreamDefaultReader<[Deno.KvEntryMaybe<Timer>]> | null = null;
    let heartbeat: ReturnType<typeof setInterval> | undefined;
    let cancelCompletion = () => {};
    const samples: ReturnType<typeof setTimeout>[] = [];
    let ended = false;
    let unregister = () => {};
    /** Ends the stream (gone, left, or the process shutting down) and lets go of all it holds. */
    const end = (controller?: ReadableStreamDefaultController<Uint8Array>) => {
      if (ended) return;
      ended = true;
      unregister();
      places.release();
      clearInterval(heartbeat);
      cancelCompletion();
      samples.forEach(clearTimeout);
      watcher?.cancel().catch(() => {});
      try {
        controller?.close();
      } catch { /* already closed */ }
    };
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        const send = (event: string, data: unknown) => {
          try {
            controller.enqueue(enc.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
          } catch { /* closed */ }
          // Past the bound the stream goes with its queue (an error drops it; a close would keep
          // it for a reader that never comes); a live page reconnects (retry below) and resyncs.
          if ((controller.desiredSize ?? 0) < 0) {
            places.dropped();
            end();
            // A reason without a stack: Deno prints it, one line per dropped stream.
            controller.error("live stream dropped: its client reads nothing");
          }
        };
        const push = (t: Timer) => {
          if (ended) return;
          const now = deps.now();
          const snap = publicSnapshot(t, now, deps.config.siteUrl);
          send("timer", snap);
          // Viewers see completion on time even before the scheduler records it.
          cancelCompletion();
          // Armed only for an instant still ahead: one already past would fire at once, and again
          // with the same stored timer, every turn of the event loop.
          if (snap.next_at !== null && snap.next_at > now) {
            cancelCompletion = callAt(snap.next_at + 5, deps.now, () => push(t));
          }
        };
        controller.enqueue(enc.encode("retry: 1000\n\n"));
        // Clock samples: a few right after connecting (one delayed sample must not skew the
        // display), then one per heartbeat; viewers keep the least delayed.
        const clock = () => send("clock", { server_now: deps.now() });
        samples.push(setTimeout(clock, 250), setTimeout(clock, 1000), setTimeout(clock, 3000));
        heartbeat = setInterval(clock, HEARTBEAT_MS);
        (async () => {
          watcher = deps.store.watchTimer(id).getReader();
          for (;;) {
            const { value, done } = await watcher.read();
            if (done || ended) break;
            const t = value[0].value;
            if (!t || t.expires_at <= deps.now()) {
              send("gone", { timer_id: id });
              end(controller);
              break;
            }
            push(t);
          }
        })().catch(() => {}).finally(() => end(controller)); // a watch that fails ends its stream too
        // On shutdown the stream closes; the browser reconnects (retry above) to the next process.
        unregister = deps.streams.add(() => end(controller));
      },
      cancel: () => end(),
    }, new ByteLengthQueuingStrategy({ highWaterMark: MAX_UNREAD_BYTES }));
    return sseResponse(body, true);
  });
}
