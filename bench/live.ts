/**
 * 6. Live fan-out: V open viewer streams (GET /live/:id, Server-Sent Events) on one timer; then
 * its state is changed through the API (start) and we measure from the PATCH response to the
 * last stream receiving `"state":"running"`.
 */
import { Api, dist, log, memory, parallel, round, seedAccount, sleep, startServer, tempKv } from "./harness.ts";
import type { Mode, Result } from "./result.ts";

const VIEWERS = 1000;

interface Viewer {
  abort: AbortController;
  cancel: () => Promise<void>;
  firstAt: number | null;
  runningAt: number | null;
  done: Promise<void>;
}

export async function live(_mode: Mode): Promise<Result[]> {
  const kv = await tempKv("live");
  const { apiKey } = await seedAccount(kv.path);
  // Every viewer here comes from one address: lift the per-IP stream limit (LIVE_STREAMS_PER_IP).
  const app = await startServer("app", kv.path, { LIVE_STREAMS_PER_IP: "100000" });
  const api = new Api(app.base, apiKey);
  const client = Deno.createHttpClient({});
  const viewers: Viewer[] = [];
  let openErrors = 0;
  try {
    const id = (await api.create({ type: "countdown", duration: 3600, title: "live" })).timer_id as string;
    const memBefore = await memory(app.pid);
    log(`live: opening ${VIEWERS} SSE streams`);
    const firstAll = Promise.withResolvers<void>();
    const runningAll = Promise.withResolvers<void>();
    let firsts = 0, runnings = 0;
    const o0 = performance.now();
    await parallel(Array.from({ length: VIEWERS }), 100, async () => {
      const abort = new AbortController();
      let res: Response;
      try {
        res = await fetch(`${app.base}/live/${id}`, { client, signal: abort.signal });
      } catch {
        openErrors++;
        return;
      }
      if (res.status !== 200 || !res.body) {
        openErrors++;
        await res.body?.cancel();
        return;
      }
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      const v: Viewer = {
        abort,
        cancel: () => reader.cancel().catch(() => {}),
        firstAt: null,
        runningAt: null,
        done: Promise.resolve(),
      };
      v.done = (async () => {
        let buf = "";
        try {
          for (;;) {
            const { value, done } = await reader.read();
            if (done) return;
            buf += value;
            let end;
            while ((end = buf.indexOf("\n\n")) >= 0) {
              const event = buf.slice(0, end);
              buf = buf.slice(end + 2);
              if (!event.startsWith("event: timer")) continue;
              const now = performance.now();
              if (v.firstAt === null) {
                v.firstAt = now;
                if (++firsts === VIEWERS - openErrors) firstAll.resolve();
              }
              if (v.runningAt === null && event.includes('"state":"running"')) {
                v.runningAt = now;
                if (++runnings === VIEWERS - openErrors) runningAll.resolve();
              }
            }
          }
        } catch { /* aborted */ }
      })();
      viewers.push(v);
    });
    const openMs = performance.now() - o0;
    const bound = (p: Promise<void>, ms: number) => Promise.race([p, sleep(ms)]);
    if (viewers.length > 0) await bound(firstAll.promise, 30_000);
    const subscribed = firsts;
    await sleep(500);
    const memOpen = await memory(app.pid);

    log(`live: ${subscribed} streams subscribed in ${openMs.toFixed(0)} ms; starting the timer`);
    const sent = performance.now();
    const patch = await api.act(id, "start");
    const answered = performance.now();
    await bound(runningAll.promise, 10_000);
    const received = viewers.filter((v) => v.runningAt !== null);
    const lags = received.map((v) => v.runningAt! - answered);
    const d = dist(lags);
    const lastS = received.length ? round(d.max / 1000, 3) : null;
    const all = received.length === VIEWERS;
    return [{
      name: "live_fanout_last_stream_s",
      value: lastS,
      unit: "s after PATCH",
      target: `≤ 1 s, all ${VIEWERS} streams`,
      met: all && lastS !== null && lastS <= 1 && patch.status === 200,
      viewers: VIEWERS,
      streams_open: viewers.length,
      open_errors: openErrors,
      subscribed,
      received_running: received.length,
      patch_status: patch.status,
      patch_ms: round(answered - sent, 1),
      after_patch_response_ms: { p50: d.p50, p99: d.p99, max: d.max, min: d.min },
      last_after_patch_sent_ms: received.length
        ? round(Math.max(...received.map((v) => v.runningAt!)) - sent, 1)
        : null,
      open_all_ms: round(openMs, 0),
      server_rss_mib_before: round(memBefore.rss_kib / 1024, 1),
      server_rss_mib_with_streams: round(memOpen.rss_kib / 1024, 1),
      note: all
        ? undefined
        : `only ${received.length} of ${VIEWERS} streams saw the new state (${subscribed} subscribed)`,
    }];
  } finally {
    const c0 = performance.now();
    await Promise.race([Promise.allSettled(viewers.map((v) => v.cancel())), sleep(5000)]);
    for (const v of viewers) v.abort.abort();
    await Promise.race([Promise.allSettled(viewers.map((v) => v.done)), sleep(5000)]);
    log(`live: streams cancelled in ${(performance.now() - c0).toFixed(0)} ms`);
    client.close();
    api.close();
    const s0 = performance.now();
    // A server that does not notice closed streams would hold SIGTERM until its heartbeat: cap it.
    await app.stop(5000);
    log(`live: server stopped ${((performance.now() - s0) / 1000).toFixed(1)} s after SIGTERM`);
    await kv.cleanup();
  }
}
