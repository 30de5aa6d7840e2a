/** Holes found under attack and under faults: authentication first, rate-limit subjects, proxies, live streams. */
import assert from "node:assert/strict";
import { createApp } from "../app.ts";
import { DEFAULT_PLANS } from "../config.ts";
import { clientIp, LogBuffer, type LogLine } from "../lib/http.ts";
import { emptyWrite } from "../lib/kv/batch.ts";
import { DueIndex, QUEUE_HORIZON_MS } from "../lib/kv/due.ts";
import { placeHeldUntilDone, served, setup, T0 } from "./helpers.ts";

const AUTHENTICATED: [string, string][] = [
  ["POST", "/api/v1/timers"],
  ["GET", "/api/v1/timers"],
  ["GET", "/api/v1/timers/:id"],
  ["PATCH", "/api/v1/timers/:id"],
  ["PATCH", "/api/v1/timers/:id/state"],
  ["DELETE", "/api/v1/timers/:id"],
  ["GET", "/api/v1/timers/:id/deliveries"],
  ["POST", "/api/v1/timers/:id/deliveries/dlv_unknown/redeliver"],
  ["POST", "/api/v1/timers/:id/webhook/test"],
  ["POST", "/api/v1/rundowns"],
  ["GET", "/api/v1/rundowns"],
  ["GET", "/api/v1/rundowns/:id"],
  ["PATCH", "/api/v1/rundowns/:id"],
  ["PATCH", "/api/v1/rundowns/:id/state"],
  ["POST", "/api/v1/rundowns/:id/actions/next"],
  ["DELETE", "/api/v1/rundowns/:id"],
  ["PUT", "/api/v1/rundowns/:id/message"],
  ["DELETE", "/api/v1/rundowns/:id/message"],
  ["PUT", "/api/v1/rundowns/:id/item/message"],
  ["DELETE", "/api/v1/rundowns/:id/item/message"],
  ["POST", "/api/v1/rundowns/:id/actions/adjust"],
  ["POST", "/api/v1/rundowns/:id/control_token"],
];

Deno.test("every authenticated route answers 401 without a credential, before validation or lookup", async () => {
  const plans = structuredClone(DEFAULT_PLANS);
  plans.anonymous = { ...plans.anonymous, per_minute: null, per_day: null };
  const s = await setup({ config: { plans } });
  const existing = (await s.create({ type: "countdown", duration: 60 })).timer_id;
  const ids = [existing, "tmr_0000000000000000", "x".repeat(3000), "%E0%A4%A", "%"];
  const bodies: { raw?: string; headers?: Record<string, string> }[] = [
    { raw: '{"type":"countdown","duration":"abc"}', headers: { "content-type": "application/json" } }, // 422 today
    { raw: "{not json", headers: { "content-type": "application/json" } }, // 400
    { raw: "a=1", headers: { "content-type": "application/x-www-form-urlencoded" } }, // 400 / 415
    { raw: JSON.stringify({ title: "x".repeat(20_000) }), headers: { "content-type": "application/json" } }, // 413
    {},
  ];
  for (const [method, pattern] of AUTHENTICATED) {
    for (const id of ids) {
      for (const b of bodies) {
        for (const query of ["", "?limit=abc&cursor=%%"]) {
          for (const auth of [undefined, "Bearer tct_madeUpControlToken0000000", "Basic abc"]) {
            const path = pattern.replace(":id", id) + query;
            const headers = { ...b.headers, ...(auth ? { authorization: auth } : {}) };
            const r = await s.call(method, path, { key: null, raw: method === "GET" ? undefined : b.raw, headers });
            const what = `${method} ${path.slice(0, 60)} ${auth ?? "(none)"} ${b.raw?.slice(0, 20) ?? ""}`;
            if (auth?.includes("tct_") && /^\/api\/v1\/timers\/[^/]+(\/state)?$/.test(pattern.replace(":id", "x"))) {
              // A control token is a credential for one timer's read and state: a wrong one is 401 alike.
              if ((method === "GET" && !pattern.endsWith("deliveries")) || pattern.endsWith("/state")) {
                assert.equal(r.status, 401, what);
              }
              continue;
            }
            // A made-up control token beyond a timer's read and state: 401 too, before any lookup.
            assert.equal(r.status, 401, what);
            assert.equal(r.headers.get("www-authenticate"), 'Bearer realm="api"', what);
          }
        }
      }
    }
  }
  // The public endpoints stay public.
  assert.equal((await s.call("GET", "/api/v1/events", { key: null })).status, 200);
  assert.equal((await s.call("GET", "/api/v1/openapi.json", { key: null })).status, 200);
  await s.close();
});

Deno.test("an unknown and an existing timer id give the same answer to a caller without a valid credential", async () => {
  const s = await setup();
  const existing = (await s.create({ type: "countdown", duration: 60 })).timer_id;
  for (const auth of [undefined, "Bearer tct_madeUpControlToken0000000", "Bearer tsk_madeUp"]) {
    const headers = auth ? { authorization: auth } : undefined;
    const a = await s.call("GET", `/api/v1/timers/${existing}`, { key: null, headers });
    const b = await s.call("GET", "/api/v1/timers/tmr_0000000000000000", { key: null, headers });
    assert.equal(a.status, 401, auth);
    assert.deepEqual([b.status, b.body.error.message], [a.status, a.body.error.message], auth);
  }
  await s.close();
});

Deno.test("made-up control tokens and API keys count against the caller's IP and write no counters of their own", async () => {
  const s = await setup({ config: { plans: structuredClone(DEFAULT_PLANS), trustProxyHops: 1 } });
  const t = await s.create({ type: "countdown", duration: 60 }, s.enterprise.apiKey);
  const statuses: number[] = [];
  for (let i = 0; i < 40; i++) {
    const token = i % 2 ? `tct_madeUp${i}${"0".repeat(20)}` : `tsk_madeUp${i}${"0".repeat(28)}`;
    const path = i % 4 < 2 ? `/api/v1/timers/${t.timer_id}` : `/api/v1/timers/${t.timer_id}/state`;
    const r = await s.call(i % 4 < 2 ? "GET" : "PATCH", path, {
      key: token,
      body: i % 4 < 2 ? undefined : { action: "start" },
      headers: { "x-forwarded-for": "198.51.100.9" },
    });
    statuses.push(r.status);
  }
  // The anonymous plan allows 30 a minute per IP: the rest are refused whatever token they carry.
  assert.deepEqual(statuses.slice(0, 30), Array(30).fill(401));
  assert.deepEqual(statuses.slice(30), Array(10).fill(429));
  await s.app.limiter.flush();
  const subjects = new Set<string>();
  for await (const e of s.kv.list({ prefix: ["rate"] })) subjects.add(String(e.key[1]));
  assert.ok(![...subjects].some((x) => x.startsWith("ctl:")), [...subjects].join());
  assert.ok(subjects.has("ip:198.51.100.9"));
  // The real control token has its own budget, keyed by its timer.
  const control = t.control_url.split("#")[1];
  const ok = await s.call("GET", `/api/v1/timers/${t.timer_id}`, {
    key: control,
    headers: { "x-forwarded-for": "198.51.100.9" },
  });
  assert.equal(ok.status, 200);
  await s.close();
});

Deno.test("behind TRUST_PROXY=<hops> the client IP is the entry the trusted proxies appended, counted from the right", async () => {
  assert.equal(clientIp("10.0.0.1", "6.6.6.6, 203.0.113.5", 1), "203.0.113.5");
  assert.equal(clientIp("10.0.0.1", "6.6.6.6, 203.0.113.5, 10.0.0.2", 2), "203.0.113.5");
  assert.equal(clientIp("10.0.0.1", "203.0.113.5", 3), "203.0.113.5");
  assert.equal(clientIp("10.0.0.1", "6.6.6.6", 0), "10.0.0.1");
  assert.equal(clientIp("10.0.0.1", undefined, 1), "10.0.0.1");
  // An entry that is no address (a client reaching the server past its proxies) is not used.
  assert.equal(clientIp("10.0.0.1", "x".repeat(60_000), 1), "10.0.0.1");
  assert.equal(clientIp("10.0.0.1", "6.6.6.6, 0x7f.1", 1), "10.0.0.1");
  assert.equal(clientIp("10.0.0.1", "203.0.113.5:4711", 1), "203.0.113.5", "a port some proxies add");
  assert.equal(clientIp("10.0.0.1", "[2001:db8::1]:4711", 1), "2001:db8::1");
  assert.equal(clientIp("10.0.0.1", "2001:db8::1", 1), "2001:db8::1");
  // End to end: the logged address and the rate-limit subject.
  const s = await setup();
  for (const [hops, expected] of [[1, "203.0.113.5"], [2, "6.6.6.6"]] as const) {
    const lines: LogLine[] = [];
    const app = createApp({
      store: s.store,
      config: { ...s.config, logRequests: true, trustProxyHops: hops },
      log: (l) => lines.push(l),
    });
    const res = await app.app.request("http://timers.test/api/v1/events", {
      headers: { "x-forwarded-for": "1.1.1.1, 6.6.6.6, 203.0.113.5" },
    });
    await res.body?.cancel();
    assert.equal(lines[0].ip, expected, `hops=${hops}`);
    await app.limiter.flush();
    const rows: string[] = [];
    for await (const e of s.kv.list({ prefix: ["rate"] })) rows.push(String(e.key[1]));
    assert.ok(rows.includes(`ip:${expected}`), rows.join());
    assert.ok(!rows.includes("ip:1.1.1.1"), "the client-written left end is never trusted");
    await app.limiter.stop();
    await app.scheduler.stop();
  }
  await s.close();
});

/** Opens /live/:id on the app; `frames()` counts the events received so far by name. */
async function openLive(app: { request: (url: string) => Response | Promise<Response> }, id: string) {
  const res = await app.request(`http://timers.test/live/${id}`);
  const counts: Record<string, number> = {};
  /** The data of the latest event of each name. */
  // deno-lint-ignore no-explicit-any
  const last: Record<string, any> = {};
  let text = "";
  const reader = res.status === 200 ? res.body?.getReader() : undefined;
  const reading = (async () => {
    if (!reader) return;
    const dec = new TextDecoder();
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      text += dec.decode(value, { stream: true });
      let end;
      while ((end = text.indexOf("\n\n")) >= 0) {
        const frame = text.slice(0, end);
        const name = /^event: (\w+)/m.exec(frame)?.[1];
        if (name) counts[name] = (counts[name] ?? 0) + 1;
        if (name) last[name] = JSON.parse(/^data: (.*)$/m.exec(frame)?.[1] ?? "null");
        text = text.slice(end + 2);
      }
    }
  })();
  return {
    res,
    counts,
    last,
    /** Resolves when the server ends the stream. */
    ended: reading,
    async close() {
      if (reader) await reader.cancel().catch(() => {});
      else if (!res.bodyUsed) await res.body?.cancel();
      await reading;
    },
  };
}

Deno.test("/live of a running timer whose deadline is 40 days away sends one frame, not one per millisecond", async () => {
  const s = await setup({ realTime: true });
  const event = await s.create({
    type: "event",
    target_date: new Date(Date.now() + 40 * 86_400_000).toISOString(),
  });
  const countdown = await s.create({ type: "countdown", duration: 40 * 86_400 });
  assert.equal((await s.act(event.timer_id, "start")).status, 200);
  assert.equal((await s.act(countdown.timer_id, "start")).status, 200);
  const streams = [await openLive(s.app.app, event.timer_id), await openLive(s.app.app, countdown.timer_id)];
  await new Promise((r) => setTimeout(r, 1200));
  for (const st of streams) {
    assert.equal(st.res.status, 200);
    // One snapshot on connecting (a write to the timer meanwhile may add one): not one per millisecond.
    assert.ok(st.counts.timer >= 1 && st.counts.timer <= 3, JSON.stringify(st.counts));
    assert.ok((st.counts.clock ?? 0) <= 2, JSON.stringify(st.counts));
    await st.close();
  }
  await s.close();
});

Deno.test("/live of an unlimited interval sends one snapshot per round end, naming the next one, not one per loop turn", async () => {
  const s = await setup(); // a test clock
  await s.app.scheduler.stop(); // nothing records a round end: every frame comes from the stream itself
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const t = await s.create({ type: "interval", work: 1, rest: 0 });
  assert.equal((await s.act(t.timer_id, "start")).status, 200);
  // The round end at T0+1 s passed unrecorded (as when the scheduler is a moment late).
  s.clock.advance(1100);
  const st = await openLive(s.app.app, t.timer_id);
  await sleep(300);
  assert.equal(st.counts.timer, 1, JSON.stringify(st.counts));
  assert.equal(st.last.timer.next_at, T0 + 2000, "the round end after now, not the one just passed");
  // The next round end passes: one snapshot for it (its wait of 905 ms fires about now), naming the one after.
  s.clock.advance(1000);
  await sleep(1000);
  assert.equal(st.counts.timer, 2, JSON.stringify(st.counts));
  assert.equal(st.last.timer.next_at, T0 + 3000);
  assert.equal(st.last.timer.timer.interval.round, 3);
  await st.close();
  await s.close();
});

Deno.test("/live allows a configured number of open streams per client IP, then 429", async () => {
  const s = await setup({ config: { liveStreamsPerIp: 2 } });
  const t = await s.create({ type: "countdown", duration: 60 });
  const a = await openLive(s.app.app, t.timer_id);
  const b = await openLive(s.app.app, t.timer_id);
  const c = await openLive(s.app.app, t.timer_id);
  assert.deepEqual([a.res.status, b.res.status, c.res.status], [200, 200, 429]);
  const refused = await c.res.json();
  assert.equal(refused.error.code, 429);
  assert.match(refused.error.message, /at most 2 live streams/);
  assert.ok(c.res.headers.get("retry-after"));
  await a.close();
  const d = await openLive(s.app.app, t.timer_id);
  assert.equal(d.res.status, 200, "a closed stream frees its place");
  await b.close();
  await d.close();
  await s.close();
});

Deno.test("/live holds at most a configured number of streams from every address together, then 503", async () => {
  // Each /64 is its own address: without a ceiling, a /48 (65 536 of them) could open 20 streams from each.
  const s = await setup({ config: { liveStreamsPerIp: 20, liveStreamsMax: 2, trustProxyHops: 1 } });
  const t = await s.create({ type: "countdown", duration: 60 });
  const from = (n: number) => ({
    request: (url: string) => s.app.app.request(url, { headers: { "x-forwarded-for": `2001:db8:0:${n}::1` } }),
  });
  const a = await openLive(from(1), t.timer_id);
  const b = await openLive(from(2), t.timer_id);
  const c = await openLive(from(3), t.timer_id);
  assert.deepEqual([a.res.status, b.res.status, c.res.status], [200, 200, 503]);
  const refused = await c.res.json();
  assert.match(refused.error.message, /limit of 2 live streams/);
  assert.ok(c.res.headers.get("retry-after"));
  await a.close();
  const d = await openLive(from(4), t.timer_id);
  assert.equal(d.res.status, 200, "a closed stream frees its place");
  await b.close();
  await d.close();
  await s.close();
});

Deno.test("shutdown ends every open /live stream and releases its place and watcher", async () => {
  const s = await setup({ config: { liveStreamsPerIp: 1 } });
  const t = await s.create({ type: "countdown", duration: 60 });
  const a = await openLive(s.app.app, t.timer_id);
  assert.equal(a.res.status, 200);
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(s.app.streams.size, 1);
  s.app.streams.endAll();
  await a.ended;
  assert.equal(a.counts.timer, 1);
  assert.equal(s.app.streams.size, 0);
  // Its place is free (limit 1), and a stream opened during shutdown ends at once.
  const b = await openLive(s.app.app, t.timer_id);
  assert.equal(b.res.status, 200);
  await b.ended;
  await s.close();
});

Deno.test("/live ends a stream its client does not read, rather than queue its frames in memory without end", async () => {
  const s = await setup({ config: { liveStreamsPerIp: 1 } });
  const t = await s.create({ type: "countdown", duration: 60 });
  // Opened and never read, as by a client whose TCP window stays shut: every change is a frame of ~1 KB.
  const connection = new AbortController();
  const res = await s.app.app.request(`http://timers.test/live/${t.timer_id}`, { signal: connection.signal });
  assert.equal(res.status, 200);
  for (let i = 0; i < 400 && s.app.streams.size > 0; i++) {
    const r = await s.call("PATCH", `/api/v1/timers/${t.timer_id}`, { body: { title: `${i} ${"x".repeat(90)}` } });
    assert.equal(r.status, 200);
    await new Promise((r) => setTimeout(r, 1)); // the watch hands the change to the stream
  }
  assert.equal(s.app.streams.size, 0, "the stream ended once its unread frames passed the bound");
  await res.body?.cancel().catch(() => {});
  // Its connection, whose last write waits for the client, keeps its place (one stream per address here)...
  const held = await s.app.app.request(`http://timers.test/live/${t.timer_id}`);
  assert.equal(held.status, 429);
  await held.body?.cancel();
  // ...until it ends; a client that reads reconnects then and resyncs.
  connection.abort();
  const again = await openLive(s.app.app, t.timer_id);
  assert.equal(again.res.status, 200);
  await again.close();
  await s.close();
});

Deno.test("served by Deno.serve, a /live stream keeps its place until its connection is done with, however it ended", async () => {
  const s = await setup({ config: { liveStreamsPerIp: 1 } });
  const t = await s.create({ type: "countdown", duration: 60 });
  const open = (env: object) => s.app.app.fetch(new Request(`http://timers.test/live/${t.timer_id}`), env);
  const first = served();
  const a = await open(first.env);
  assert.equal(a.status, 200);
  await a.body!.cancel(); // the stream ends (here its reader leaves; a deleted timer or a shutdown end it too)
  assert.equal(s.app.streams.size, 0);
  // Its connection may still hold unread frames: the address's one place stays taken until it is done with.
  const { res, connection } = await placeHeldUntilDone(open, first, 429);
  await res.body!.cancel();
  connection.done.resolve();
  await s.close();
});

Deno.test("a /live stream whose KV watch fails ends, and its places go back once its connection is done with", async () => {
  const s = await setup({ config: { liveStreamsPerIp: 1, liveStreamsMax: 1 } });
  const t = await s.create({ type: "countdown", duration: 60 });
  s.store.watchTimer = () => new ReadableStream({ pull: (c) => c.error(new Error("watch failed")) }) as never;
  const open = (env: object) => s.app.app.fetch(new Request(`http://timers.test/live/${t.timer_id}`), env);
  const a = served("192.0.2.7");
  const res = await open(a.env);
  assert.equal(res.status, 200);
  const read = res.text();
  const ended = await Promise.race([read.then(() => true), new Promise((r) => setTimeout(() => r(false), 2000))]);
  assert.ok(ended, "the stream ends");
  assert.equal(s.app.streams.size, 0);
  // The process's one place, asked for from other addresses.
  const { res: again, connection } = await placeHeldUntilDone(open, a, 503, ["198.51.100.1", "198.51.100.2"]);
  await again.body!.cancel();
  connection.done.resolve();
  await s.close();
});

Deno.test("the queue wake-ups a process remembers stay bounded when deadlines ahead keep coming", async () => {
  // A countdown started and paused again and again: each start writes a wake-up for a new
  // instant ahead, which a prune of past instants never removes.
  const kv = await Deno.openKv(":memory:");
  const due = new DueIndex(kv, { useQueue: true, maxWoken: 10 });
  const now = Date.now();
  for (let i = 0; i < 40; i++) {
    const w = emptyWrite();
    const item = { at: now + QUEUE_HORIZON_MS - 1000 + i, kind: "timer" as const, ref: `tmr_${i}` };
    due.addDue(w, { item, value: { kind: "timer" }, wake: true }, now);
    assert.equal(w.enqueues.length, 1, "a new instant gets its wake-up");
    assert.notEqual((await due.commit([w], [{ due: [], born: [] }]))[0], null);
    assert.ok(due.wokenInstants <= 11, `${due.wokenInstants} instants remembered after ${i + 1} wake-ups`);
  }
  kv.close();
});

Deno.test("queue wake-ups go only with changes due within the hour, so far-off ones do not pile up", async () => {
  // A year-long countdown started and paused 50 times used to leave 50 messages queued for 30 days each.
  const s = await setup({ useQueue: true });
  const { timer_id: id } = await s.create({ type: "countdown", duration: 365 * 86400 });
  const queued: unknown[] = [];
  // Wake-ups are written in the commit of the change they go with.
  const kv = s.app.store.kv;
  const atomic = kv.atomic.bind(kv);
  kv.atomic = () => {
    const op = atomic();
    const enqueue = op.enqueue.bind(op);
    op.enqueue = (
      value: unknown,
      opts?: { delay?: number },
    ) => (queued.push({ value, delay: opts?.delay }), enqueue(value, opts));
    return op;
  };
  const act = async (action: string) =>
    assert.equal((await s.call("PATCH", `/api/v1/timers/${id}/state`, { body: { action } })).status, 200, action);
  await act("start");
  for (let i = 0; i < 50; i++) {
    await act("pause");
    s.clock.t += 1000; // paused a second: each resume moves the deadline to a new instant
    await act("resume");
  }
  assert.equal(queued.length, 0, "no wake-up for a deadline a year ahead");
  // One due within the hour still gets its wake-up, 3 s after the deadline.
  const { timer_id: soon } = await s.create({ type: "countdown", duration: 600 });
  assert.equal((await s.call("PATCH", `/api/v1/timers/${soon}/state`, { body: { action: "start" } })).status, 200);
  assert.equal(queued.length, 1);
  assert.equal((queued[0] as { delay: number }).delay, 600_000 + 3000);
  await s.close();
});

Deno.test("/live with an over-long id answers 404, never 500", async () => {
  const s = await setup();
  for (const id of ["x".repeat(2100), "tmr_" + "A".repeat(3000), "%F0%9F%98%80".repeat(400)]) {
    const r = await s.call("GET", `/live/${id}`, { key: null });
    assert.equal(r.status, 404, id.slice(0, 12));
  }
  await s.close();
});

Deno.test("request logs are written in batches, never on the request path, and whatever is left at exit", async () => {
  // A stdout that takes each write and does not finish it until told to.
  const written: string[] = [];
  const pending: (() => void)[] = [];
  const dec = new TextDecoder();
  const sink = {
    write: (p: Uint8Array) =>
      new Promise<number>((resolve) => {
        pending.push(() => {
          written.push(dec.decode(p));
          resolve(p.length);
        });
      }),
    writeSync: (p: Uint8Array) => (written.push(dec.decode(p)), p.length),
  };
  const buf = new LogBuffer(sink, { flushMs: 1 });
  for (let i = 0; i < 100; i++) buf.log({ n: i });
  assert.equal(written.length + pending.length, 0, "logging a line writes nothing at once");
  const flushed = buf.flush();
  assert.equal(pending.length, 1, "one write for the whole batch");
  // stdout is stuck: requests keep logging without waiting for it.
  const t0 = performance.now();
  for (let i = 100; i < 200; i++) buf.log({ n: i });
  assert.ok(performance.now() - t0 < 50);
  pending.shift()!();
  await new Promise((r) => setTimeout(r, 0));
  assert.equal(pending.length, 1, "what gathered meanwhile goes out in the next single write");
  pending.shift()!();
  await flushed;
  buf.log({ n: 200 });
  buf.flushSync(); // at exit
  const lines = written.join("").trimEnd().split("\n").map((l) => JSON.parse(l).n);
  assert.deepEqual(lines, Array.from({ length: 201 }, (_, i) => i));
});

Deno.test("a server with request logs on (the default) writes one line per request and the last ones at exit", async () => {
  const dir = await Deno.makeTempDir();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "main.ts"],
    cwd: new URL("..", import.meta.url).pathname,
    env: { PORT: "0", KV_PATH: `${dir}/kv.sqlite3` },
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let out = "";
  let port = 0;
  while (!port) {
    const { value, done } = await reader.read();
    if (done) throw new Error("server exited before listening");
    out += value;
    port = Number(/"msg":"listening"[^\n]*"port":(\d+)/.exec(out)?.[1] ?? 0);
  }
  for (let i = 0; i < 20; i++) await (await fetch(`http://127.0.0.1:${port}/healthz`)).body?.cancel();
  child.kill("SIGTERM");
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    out += value;
  }
  await child.status;
  const requests = out.split("\n").filter((l) => l.includes('"path":"/healthz"'));
  assert.equal(requests.length, 20);
  assert.ok(requests.every((l) => JSON.parse(l).request_id.startsWith("req_")));
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a server whose stdout nobody reads keeps answering requests", async () => {
  const dir = await Deno.makeTempDir();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "main.ts"],
    cwd: new URL("..", import.meta.url).pathname,
    env: { PORT: "0", KV_PATH: `${dir}/kv.sqlite3` },
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = child.stdout.getReader();
  const dec = new TextDecoder();
  let out = "";
  let port = 0;
  while (!port) {
    const { value, done } = await reader.read();
    if (done) throw new Error("server exited before listening");
    out += dec.decode(value);
    port = Number(/"msg":"listening"[^\n]*"port":(\d+)/.exec(out)?.[1] ?? 0);
  }
  // Stop reading: the pipe (64 KiB) fills after a few hundred log lines.
  const deadline = Date.now() + 20_000;
  let answered = 0;
  const client = Deno.createHttpClient({});
  await Promise.all(Array.from({ length: 8 }, async () => {
    while (answered < 2000 && Date.now() < deadline) {
      // An unknown path of 300 characters: a 404 and a log line of about 500 bytes.
      const signal = AbortSignal.timeout(5000);
      const r = await fetch(`http://127.0.0.1:${port}/nothing-${"x".repeat(300)}`, { client, signal }).catch(() =>
        null
      );
      if (!r) return; // no answer within 5 s: the server is stuck
      await r.body?.cancel();
      if (r.status === 404) answered++;
    }
  }));
  client.close();
  assert.ok(answered >= 2000, `only ${answered} requests answered while stdout was not read`);
  child.kill("SIGTERM");
  while (!(await reader.read()).done) { /* drain, so the server can write its last lines and exit */ }
  await child.status;
  await Deno.remove(dir, { recursive: true });
});

Deno.test("HEAD answers carry the Content-Length of their GET, never a made-up 0", async () => {
  const s = await setup({ config: { liveStreamsPerIp: 1 } });
  const t = await s.create({ type: "countdown", duration: 60 });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, s.app.app.fetch);
  const base = `http://127.0.0.1:${server.addr.port}`;
  const auth = { authorization: `Bearer ${s.pro.apiKey}` };
  try {
    for (
      const path of [`/api/v1/timers/${t.timer_id}`, "/api/v1/events?region=US", "/widget?duration=60", "/healthz"]
    ) {
      const get = await fetch(base + path, { headers: auth });
      const body = await get.arrayBuffer();
      const head = await fetch(base + path, { method: "HEAD", headers: auth });
      assert.equal(head.status, get.status, path);
      assert.equal(head.headers.get("content-length"), String(body.byteLength), path);
      assert.equal((await head.arrayBuffer()).byteLength, 0, path);
    }
    // HEAD of a stream closes it: its place is free again (one stream per IP here).
    for (let n = 0; n < 3; n++) {
      const live = await fetch(`${base}/live/${t.timer_id}`, { method: "HEAD" });
      assert.equal(live.status, 200, `HEAD /live #${n}`);
      await live.body?.cancel();
    }
  } finally {
    await server.shutdown();
    await s.close();
  }
});
