/**
 * Linked rundowns on the injected clock: the next item starts in the commit that completes the
 * previous one, at its instant exactly; a restarted process still advances; rundown webhooks.
 */
import assert from "node:assert/strict";
import { key } from "../lib/kv/keys.ts";
import { Scheduler } from "../lib/webhooks/scheduler.ts";
import type { Timer } from "../lib/timers/model.ts";
import { receiver, setup, T0 } from "./helpers.ts";

type S = Awaited<ReturnType<typeof setup>>;

const talk = (title: string, duration: number, extra: Record<string, unknown> = {}) => ({
  type: "countdown",
  title,
  duration,
  ...extra,
});

async function linked(s: S, items: unknown[], webhook_url?: string) {
  const r = await s.call("POST", "/api/v1/rundowns", { body: { title: "Linked", mode: "linked", items, webhook_url } });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return {
    id: r.body.rundown_id as string,
    ids: r.body.items.map((i: { timer_id: string }) => i.timer_id) as string[],
  };
}

const stored = async (s: S, id: string) => (await s.kv.get<Timer>(key.timer(id))).value!;

Deno.test("linked: each item starts in the commit that completes the one before, at its completed_at exactly", async () => {
  const s = await setup();
  const rx = receiver();
  let stream: ReadableStream<Deno.KvEntryMaybe<unknown>[]> | undefined;
  try {
    const { id, ids } = await linked(s, [talk("One", 60), talk("Two", 30), talk("Three", 45)], rx.url);
    // Every committed state of the three items and the rundown, as kv.watch reports them.
    stream = s.kv.watch([key.timer(ids[0]), key.timer(ids[1]), key.timer(ids[2]), key.rundown(id)]);
    const snapshots: string[][] = [];
    const reading = (async () => {
      for await (const entries of stream) {
        const [a, b, c, r] = entries.map((e) => e.value as { state: string });
        snapshots.push([a.state, b.state, c.state, r.state]);
        if (r.state === "completed") break;
      }
    })();
    assert.equal((await s.call("PATCH", `/api/v1/rundowns/${id}/state`, { body: { action: "start" } })).status, 200);

    // Just before the first item ends: it alone runs.
    s.clock.t = T0 + 59_999;
    await s.app.scheduler.settled();
    assert.deepEqual([(await stored(s, ids[0])).state, (await stored(s, ids[1])).state], ["running", "idle"]);

    s.clock.t = T0 + 60_000;
    await s.app.scheduler.settled();
    const [one, two] = [await stored(s, ids[0]), await stored(s, ids[1])];
    assert.equal(one.state, "completed");
    assert.equal(one.completed_at, T0 + 60_000);
    assert.equal(two.state, "running");
    assert.equal(two.started_at, one.completed_at, "no gap: the next starts at the completion's instant");
    let r = (await s.call("GET", `/api/v1/rundowns/${id}`)).body;
    assert.equal(r.current, 1);
    assert.equal(r.offset_seconds, 0);

    // Late by 20 s (a busy process): the third still starts at the second's deadline, not at now.
    s.clock.t = T0 + 110_000;
    await s.app.scheduler.settled();
    const three = await stored(s, ids[2]);
    assert.equal((await stored(s, ids[1])).completed_at, T0 + 90_000);
    assert.equal(three.started_at, T0 + 90_000);
    s.clock.t = T0 + 135_000;
    await s.app.scheduler.settled();
    r = (await s.call("GET", `/api/v1/rundowns/${id}`)).body;
    assert.equal(r.state, "completed");
    assert.equal(r.completed_at, new Date(T0 + 135_000).toISOString());
    await reading;

    // Never two items running, never none while the show runs.
    for (const [a, b, c, show] of snapshots) {
      const running = [a, b, c].filter((x) => x === "running").length;
      if (show === "running") assert.equal(running, 1, JSON.stringify(snapshots));
      else assert.equal(running, 0, JSON.stringify(snapshots));
    }
    assert.ok(snapshots.length >= 3, JSON.stringify(snapshots));

    // The rundown's own events, signed like timer events.
    await rx.waitFor(4);
    const got = rx.received.map((x) => x.json);
    assert.deepEqual(got.map((e) => e.event), [
      "rundown.started",
      "rundown.advanced",
      "rundown.advanced",
      "rundown.completed",
    ]);
    assert.deepEqual(got[1].data, {
      from: 0,
      to: 1,
      item: { index: 1, timer_id: ids[1], title: "Two" },
      cause: "finish",
    });
    assert.equal(got[1].timestamp, new Date(T0 + 60_000).toISOString());
    assert.equal(got[2].timestamp, new Date(T0 + 90_000).toISOString());
    assert.equal(got[1].rundown_id, id);
    assert.match(rx.received[1].headers.get("x-service-signature")!, /^sha256=[0-9a-f]{64}$/);
    assert.ok(rx.received[1].headers.get("webhook-signature"));
    assert.equal(new Set(got.map((e) => e.id)).size, 4);
  } finally {
    await stream?.cancel().catch(() => {});
    await s.close();
    await rx.close();
  }
});

Deno.test("linked: an item in overtime advances when it is stopped, the next starting at the stop", async () => {
  const s = await setup();
  try {
    const { id, ids } = await linked(s, [talk("One", 10, { overtime: true }), talk("Two", 30)]);
    await s.call("POST", `/api/v1/rundowns/${id}/actions/start`);
    s.clock.t = T0 + 25_000;
    await s.app.scheduler.settled();
    assert.equal((await stored(s, ids[0])).state, "running", "counting on past zero");
    assert.equal((await stored(s, ids[1])).state, "idle");
    const r = (await s.call("GET", `/api/v1/rundowns/${id}`)).body;
    assert.equal(r.offset_seconds, 15, "15 s over its plan");
    assert.equal((await s.act(ids[0], "stop")).status, 200);
    const [one, two] = [await stored(s, ids[0]), await stored(s, ids[1])];
    assert.equal(one.state, "stopped");
    assert.equal(two.state, "running");
    assert.equal(two.started_at, one.stopped_at);
    assert.equal(two.started_at, T0 + 25_000);
    assert.equal((await s.call("GET", `/api/v1/rundowns/${id}`)).body.current, 1);
  } finally {
    await s.close();
  }
});

Deno.test("linked: a manual rundown does not advance by itself, but its last item completes the show", async () => {
  const s = await setup();
  try {
    const r0 = await s.call("POST", "/api/v1/rundowns", { body: { items: [talk("One", 10), talk("Two", 10)] } });
    const { rundown_id: id, items } = r0.body;
    await s.call("POST", `/api/v1/rundowns/${id}/actions/start`);
    s.clock.t = T0 + 15_000;
    await s.app.scheduler.settled();
    assert.equal((await stored(s, items[1].timer_id)).state, "idle");
    assert.equal((await s.call("GET", `/api/v1/rundowns/${id}`)).body.state, "running");
    await s.call("POST", `/api/v1/rundowns/${id}/actions/next`);
    s.clock.t = T0 + 30_000;
    await s.app.scheduler.settled();
    const r = (await s.call("GET", `/api/v1/rundowns/${id}`)).body;
    assert.equal(r.state, "completed");
    assert.equal(r.completed_at, new Date(T0 + 25_000).toISOString());
  } finally {
    await s.close();
  }
});

Deno.test("linked: a process started after the items' instants advances them, each at its own instant", async () => {
  const s = await setup();
  try {
    const { id, ids } = await linked(s, [talk("One", 60), talk("Two", 60), talk("Three", 60)]);
    await s.call("POST", `/api/v1/rundowns/${id}/actions/start`);
    await s.app.scheduler.settled();
    await s.app.scheduler.stop();
    // No process runs past the first two items' ends; another starts on the same KV.
    s.clock.t = T0 + 150_000;
    const next = new Scheduler({ store: s.store, config: s.config, now: s.clock.now });
    await next.sweep(true);
    await next.settled();
    const t = await Promise.all(ids.map((i) => stored(s, i)));
    assert.deepEqual(t.map((x) => x.state), ["completed", "completed", "running"]);
    assert.equal(t[1].started_at, T0 + 60_000);
    assert.equal(t[1].completed_at, T0 + 120_000);
    assert.equal(t[2].started_at, T0 + 120_000);
    const r = (await s.call("GET", `/api/v1/rundowns/${id}`)).body;
    assert.equal(r.current, 2);
    assert.equal(r.state, "running");
    await next.stop();
  } finally {
    await s.close();
  }
});

Deno.test("linked: two processes waking at the same completion advance the show once", async () => {
  const s = await setup();
  const rx = receiver();
  const other = new Scheduler({ store: s.store, config: s.config, now: s.clock.now });
  try {
    const { id, ids } = await linked(s, [talk("One", 60), talk("Two", 60)], rx.url);
    await s.call("POST", `/api/v1/rundowns/${id}/actions/start`);
    await s.app.scheduler.settled();
    s.clock.t = T0 + 60_000;
    // Both read the due entry before either commits; the atomic checks let one of them through.
    await Promise.all([s.app.scheduler.runAt([T0 + 60_000]), other.runAt([T0 + 60_000])]);
    await Promise.all([s.app.scheduler.settled(), other.settled()]);
    const two = await stored(s, ids[1]);
    assert.equal(two.state, "running");
    assert.equal(two.started_at, T0 + 60_000);
    await rx.waitFor(2);
    await s.app.scheduler.settled();
    await other.settled();
    const advanced = rx.received.filter((x) => x.json.event === "rundown.advanced");
    assert.equal(advanced.length, 1, JSON.stringify(rx.received.map((x) => x.json.event)));
    assert.equal((await s.call("GET", `/api/v1/rundowns/${id}`)).body.current, 1);
  } finally {
    await other.stop();
    await s.close();
    await rx.close();
  }
});

Deno.test("linked: 60 rundowns whose items end in the same instant advance at that instant, in shared commits", async () => {
  const s = await setup();
  const rx = receiver();
  const atomic = s.kv.atomic.bind(s.kv);
  let commits = 0;
  try {
    const shows: { id: string; ids: string[] }[] = [];
    for (let i = 0; i < 60; i++) {
      const r = await s.call("POST", "/api/v1/rundowns", {
        body: { mode: "linked", items: [talk(`A${i}`, 30), talk(`B${i}`, 30)], webhook_url: rx.url },
        key: s.enterprise.apiKey,
      });
      assert.equal(r.status, 201, JSON.stringify(r.body));
      shows.push({ id: r.body.rundown_id, ids: r.body.items.map((x: { timer_id: string }) => x.timer_id) });
      await s.call("POST", `/api/v1/rundowns/${r.body.rundown_id}/actions/start`, { key: s.enterprise.apiKey });
    }
    await rx.waitFor(60); // rundown.started
    await s.app.scheduler.settled();
    // Commits that write a rundown (the advances), whatever else the process commits meanwhile.
    s.kv.atomic = () => {
      const op = atomic();
      const [set, commit] = [op.set.bind(op), op.commit.bind(op)];
      let advances = false;
      op.set = (k, v, o) => (advances ||= k[0] === "rundown", set(k, v, o));
      op.commit = () => (commits += Number(advances), commit());
      return op;
    };
    s.clock.t = T0 + 30_000;
    await s.app.scheduler.settled();
    for (const show of shows) {
      const [a, b] = [await stored(s, show.ids[0]), await stored(s, show.ids[1])];
      assert.equal(a.completed_at, T0 + 30_000);
      assert.equal(b.started_at, T0 + 30_000);
      assert.equal(b.state, "running");
    }
    await rx.waitFor(120);
    await s.app.scheduler.settled();
    const advanced = rx.received.filter((x) => x.json.event === "rundown.advanced");
    assert.deepEqual(new Set(advanced.map((x) => x.json.rundown_id)), new Set(shows.map((x) => x.id)));
    assert.equal(new Set(advanced.map((x) => x.json.id)).size, 60, "each advance sent once");
    // The 60 advances are packed (a local file takes 100 checks a commit), not one commit each.
    assert.ok(commits <= 5, `${commits} commits`);
  } finally {
    s.kv.atomic = atomic;
    await s.close();
    await rx.close();
  }
});
