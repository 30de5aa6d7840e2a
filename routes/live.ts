/**
 * GET /live/:id — the public push stream of one timer (Server-Sent Events fed by kv.watch).
 * It carries only what a viewer may see: never the webhook URL, the owner or any token.
 */
import type { Hono } from "hono";
import type { Config } from "../config.ts";
import type { AppEnv } from "../lib/http.ts";
import type { Store } from "../lib/kv/store.ts";
import { effective, nextDeadline, type Timer, timerView } from "../lib/timers/model.ts";

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
    /** Next clock transition (round end or completion), epoch ms, or null. */
    next_at: nextDeadline(e),
  };
}

function endsAt(t: Timer): number | null {
  if (t.type === "event") return Date.parse(t.target_date!);
  if (t.state !== "running" || t.resumed_at === null) return null;
  const total = t.type === "countdown" ? (t.duration ?? 0) * 1000 : t.duration === null ? null : t.duration * 1000;
  return total === null ? null : t.resumed_at + total - t.elapsed_ms;
}

const HEARTBEAT_MS = 15_000;

/** Registers the stream route. */
export function liveRoutes(app: Hono<AppEnv>, deps: { store: Store; config: Config; now: () => number }) {
  app.get("/live/:id", async (c) => {
    const id = c.req.param("id");
    const first = await deps.store.getTimer(id);
    if (!first || first.timer.expires_at <= deps.now()) {
      return c.json({ error: { code: 404, message: "timer not found or expired" } }, 404);
    }
    const enc = new TextEncoder();
    let watcher: ReadableStreamDefaultReader<[Deno.KvEntryMaybe<Timer>]> | null = null;
    let heartbeat: ReturnType<typeof setInterval> | undefined;
    let completion: ReturnType<typeof setTimeout> | undefined;
    const samples: ReturnType<typeof setTimeout>[] = [];
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        const send = (event: string, data: unknown) => {
          try {
            controller.enqueue(enc.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
          } catch { /* closed */ }
        };
        const push = (t: Timer) => {
          const now = deps.now();
          const snap = publicSnapshot(t, now, deps.config.siteUrl);
          send("timer", snap);
          // Viewers see completion on time even before the scheduler records it.
          clearTimeout(completion);
          if (snap.next_at !== null) {
            completion = setTimeout(() => push(t), Math.max(0, snap.next_at - now) + 5);
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
            if (done) break;
            const t = value[0].value;
            if (!t || t.expires_at <= deps.now()) {
              send("gone", { timer_id: id });
              clearInterval(heartbeat);
              clearTimeout(completion);
              samples.forEach(clearTimeout);
              controller.close();
              break;
            }
            push(t);
          }
        })().catch(() => {});
      },
      cancel: () => {
        clearInterval(heartbeat);
        clearTimeout(completion);
        samples.forEach(clearTimeout);
        watcher?.cancel().catch(() => {});
      },
    });
    return new Response(body, {
      headers: {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-store",
        "x-accel-buffering": "no",
        "access-control-allow-origin": "*",
      },
    });
  });
}
