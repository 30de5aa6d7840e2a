/** Rundowns as an outside checker attacks them: stream limits, deleted items, logs, validation. */
import assert from "node:assert/strict";
import { advance, clocked, placeHeldUntilDone, served, setup, T0 } from "./helpers.ts";
import { rundown, talk } from "./rundown_helpers.ts";
import { key } from "../lib/kv/keys.ts";
import type { Timer } from "../lib/timers/model.ts";

type S = Awaited<ReturnType<typeof setup>>;

/** Opens the stage's stream; `close` cancels it. */
async function openStage(s: S, id: string, ip = "203.0.113.9") {
  const res = await s.app.app.request(`http://timers.test/live/r/${id}`, { headers: { "x-forwarded-for": ip } });
  return {
    res,
    close: async () => {
      await res.body?.cancel().catch(() => {});
    },
  };
}

Deno.test("the stage's stream allows the configured number of open streams per client IP, then 429", async () => {
  const s = await setup({ config: { liveStreamsPerIp: 2, trustProxyHops: 1 } });
  try {
    const { id } = await rundown(s, { items: [talk("One", 60)] });
    const [a, b, c] = [await openStage(s, id), await openStage(s, id), await openStage(s, id)];
    assert.deepEqual([a.res.status, b.res.status, c.res.status], [200, 200, 429]);
    const refused = await c.res.json();
    assert.match(refused.error.message, /at most 2 live streams/);
    assert.ok(c.res.headers.get("retry-after"));
    // Another address is not refused, and a closed stream frees its place.
    const other = await openStage(s, id, "198.51.100.4");
    assert.equal(other.res.status, 200);
    await a.close();
    const d = await openStage(s, id);
    assert.equal(d.res.status, 200, "a closed stream frees its place");
    await Promise.all([b.close(), d.close(), other.close()]);
  } finally {
    await s.close();
  }
});

Deno.test("served by Deno.serve, a stage stream keeps its address's place until its connection is done with", async () => {
  const s = await setup({ config: { liveStreamsPerIp: 1 } });
  try {
    const { id } = await rundown(s, { items: [talk("One", 60)] });
    const open = (env: object) => s.app.app.fetch(new Request(`http://timers.test/live/r/${id}`), env);
    const first = served();
    const a = await open(first.env);
    assert.equal(a.status, 200);
    await a.body!.cancel(); // the stream ends; its connection may still hold unread frames
    const { res, connection } = await placeHeldUntilDone(open, first, 429);
    await res.body!.cancel();
    connection.done.resolve();
  } finally {
    await s.close();
  }
});

Deno.test("a live item whose timer was deleted does not hold the show: next, goto and stop move on; starting it is 409", async () => {
  const s = await setup();
  try {
    const { id, ids } = await rundown(s, { items: [talk("One", 300), talk("Two", 300), talk("Three", 300)] });
    const act = (action: string, index?: number) =>
      s.call("PATCH", `/api/v1/rundowns/${id}/state`, { body: index === undefined ? { action } : { action, index } });
    assert.equal((await act("start")).status, 200);
    // The API refuses it (tests/rundowns_guards_test.ts); the store's delete stands for any other way it goes.
    assert.equal((await s.call("DELETE", `/api/v1/timers/${ids[0]}`)).status, 409);
    assert.ok(await s.store.timers.deleteTimer(ids[0]));
    const next = await act("next");
    assert.equal(next.status, 200, JSON.stringify(next.body));
    assert.equal(next.body.current, 1);
    assert.deepEqual(next.body.items.map((i: { state: string }) => i.state), ["missing", "running", "idle"]);
    // Back onto the deleted item: nothing to start there.
    const back = await act("previous");
    assert.equal(back.status, 409);
    assert.equal(back.body.error.field, "items");
    // Cued on it (goto), the show can still go elsewhere and stop.
    assert.equal((await act("goto", 0)).status, 200);
    assert.equal((await act("goto", 2)).status, 200);
    assert.equal((await act("goto", 0)).status, 200);
    const stop = await act("stop");
    assert.equal(stop.status, 200, JSON.stringify(stop.body));
    assert.equal(stop.body.state, "stopped");
    assert.equal((await act("start")).status, 409, "the deleted item cannot start");
  } finally {
    await s.close();
  }
});

Deno.test("PATCH /rundowns/{id}/state names the rundown's actions when refusing one, and index only goes with goto", async () => {
  const s = await setup();
  try {
    const { id } = await rundown(s, { items: [talk("One", 60), talk("Two", 60)] });
    const state = (body: unknown) => s.call("PATCH", `/api/v1/rundowns/${id}/state`, { body });
    for (const body of [{}, { action: "pause" }, { action: "adjust" }, { action: 3 }]) {
      const r = await state(body);
      assert.equal(r.status, 422, JSON.stringify(body));
      assert.equal(r.body.error.field, "action");
      assert.match(r.body.error.message, /start, next, previous, goto, stop, reset/, JSON.stringify(r.body));
    }
    for (const index of [-1, 1.5, "1", 100]) {
      const r = await state({ action: "goto", index });
      assert.equal(r.status, 422, String(index));
      assert.equal(r.body.error.field, "index");
      assert.match(r.body.error.message, /index must be an integer from 0/, JSON.stringify(r.body));
    }
    // As the bodiless POST refuses ?index= on another action, so does the body: nothing moves.
    const start = await state({ action: "start", index: 1 });
    assert.equal(start.status, 422);
    assert.equal(start.body.error.field, "index");
    assert.equal((await s.call("GET", `/api/v1/rundowns/${id}`)).body.state, "idle");
    assert.equal((await state({ action: "goto", index: 1 })).status, 200);
  } finally {
    await s.close();
  }
});

Deno.test("a rundown's control token is replaced with the API key: the old control link stops at once", async () => {
  const s = await setup();
  try {
    const r = await s.call("POST", "/api/v1/rundowns", { body: { items: [talk("One", 60)] } });
    const id = r.body.rundown_id;
    const old = r.body.control_url.split("#")[1];
    assert.equal((await s.call("GET", `/api/v1/rundowns/${id}`, { key: old })).status, 200);
    // Only the owner's key may replace it.
    assert.equal((await s.call("POST", `/api/v1/rundowns/${id}/control_token`, { key: old })).status, 403);
    assert.equal((await s.call("POST", `/api/v1/rundowns/${id}/control_token`, { key: s.other.apiKey })).status, 404);
    const rotated = await s.call("POST", `/api/v1/rundowns/${id}/control_token`);
    assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
    assert.match(rotated.body.control_url, new RegExp(`^http://timers.test/r/${id}/control#tct_`));
    const fresh = rotated.body.control_url.split("#")[1];
    assert.notEqual(fresh, old);
    assert.equal((await s.call("GET", `/api/v1/rundowns/${id}`, { key: old })).status, 401);
    assert.equal((await s.call("POST", `/api/v1/rundowns/${id}/actions/start`, { key: old })).status, 401);
    const start = await s.call("POST", `/api/v1/rundowns/${id}/actions/start`, { key: fresh });
    assert.equal(start.status, 200);
    assert.equal(start.body.control_url, undefined, "only the rotation's answer shows it");
  } finally {
    await s.close();
  }
});

Deno.test("an account holds at most as many rundowns as its plan stores timers: the next is 403, whatever its items", async () => {
  const plans = structuredClone((await import("../config.ts")).DEFAULT_PLANS);
  plans.pro = { ...plans.pro, timers: 2, per_minute: 100_000, per_day: null };
  const s = await setup({ config: { plans } });
  try {
    // Each rundown's only timer deleted afterwards: the timers' limit alone no longer bounds the rundowns.
    for (const title of ["A", "B"]) {
      const { ids } = await rundown(s, { title, items: [talk(title, 60)] });
      assert.equal((await s.call("DELETE", `/api/v1/timers/${ids[0]}`)).status, 200);
    }
    const third = await s.call("POST", "/api/v1/rundowns", { body: { items: [talk("C", 60)] } });
    assert.equal(third.status, 403, JSON.stringify(third.body));
    assert.match(third.body.error.message, /at most 2 rundowns/);
    assert.equal((await s.call("GET", "/api/v1/timers")).body.timers.length, 0, "nothing was created");
    // Deleting one makes room again.
    const list = (await s.call("GET", "/api/v1/rundowns")).body.rundowns;
    assert.equal((await s.call("DELETE", `/api/v1/rundowns/${list[0].rundown_id}`)).status, 200);
    assert.equal((await s.call("POST", "/api/v1/rundowns", { body: { items: [talk("C", 60)] } })).status, 201);
    // Enterprise: unlimited, as its timers are.
    const big = await s.call("POST", "/api/v1/rundowns", {
      body: { items: [talk("E", 60)] },
      key: s.enterprise.apiKey,
    });
    assert.equal(big.status, 201);
  } finally {
    await s.close();
  }
});

Deno.test("linked: an item whose timer was deleted is skipped, the next existing one starting at the finish", async () => {
  const s = await clocked();
  try {
    const stored = async (id: string) => (await s.kv.get<Timer>(key.timer(id))).value!;
    // By the clock (the scheduler's path) and by a stop in overtime (the API's path).
    const { id, ids } = await rundown(s, { mode: "linked", items: [talk("A", 60), talk("B", 60), talk("C", 60)] });
    const over = await rundown(s, {
      mode: "linked",
      items: [{ ...talk("A2", 30), overtime: true }, talk("B2", 60), talk("C2", 60)],
    });
    await s.call("POST", `/api/v1/rundowns/${id}/actions/start`);
    await s.call("POST", `/api/v1/rundowns/${over.id}/actions/start`);
    await s.call("DELETE", `/api/v1/timers/${ids[1]}`);
    await s.call("DELETE", `/api/v1/timers/${over.ids[1]}`);
    await advance(s, 60_000);
    let r = (await s.call("GET", `/api/v1/rundowns/${id}`)).body;
    assert.deepEqual([r.state, r.current], ["running", 2], JSON.stringify(r));
    assert.equal((await stored(ids[2])).started_at, T0 + 60_000);
    assert.equal((await stored(ids[2])).state, "running");
    assert.equal((await s.act(over.ids[0], "stop")).status, 200);
    r = (await s.call("GET", `/api/v1/rundowns/${over.id}`)).body;
    assert.deepEqual([r.state, r.current], ["running", 2], JSON.stringify(r));
    assert.equal((await stored(over.ids[2])).started_at, (await stored(over.ids[0])).stopped_at);
    // The last existing item completes the show.
    await advance(s, 60_000);
    assert.equal((await s.call("GET", `/api/v1/rundowns/${id}`)).body.state, "completed");
  } finally {
    await s.close();
  }
});

Deno.test("the stage's Next names the next item whose timer exists; none left, no Next", async () => {
  const s = await setup();
  try {
    const { id, ids } = await rundown(s, { items: [talk("One", 60), talk("Gone", 60), talk("Three", 60)] });
    await s.call("DELETE", `/api/v1/timers/${ids[1]}`);
    const page = async () => await (await s.app.app.request(`http://timers.test/r/${id}?lang=en`)).text();
    let html = await page();
    assert.ok(html.includes("Next: Three"), html.match(/stage-next[^<]*<?[^<]*/)?.[0]);
    await s.call("DELETE", `/api/v1/timers/${ids[2]}`);
    html = await page();
    assert.ok(!html.includes("Next:"), html.match(/stage-next[^<]*<?[^<]*/)?.[0]);
  } finally {
    await s.close();
  }
});

Deno.test("GET /rundowns lists the others when one is deleted while the page is read", async () => {
  const s = await setup();
  try {
    const a = await rundown(s, { title: "A", items: [talk("One", 60)] });
    s.clock.advance(1000);
    await rundown(s, { title: "B", items: [talk("Two", 60)] });
    const list = s.store.rundowns.list.bind(s.store.rundowns);
    s.store.rundowns.list = async (acct, opts) => {
      const page = await list(acct, opts);
      await s.call("DELETE", `/api/v1/rundowns/${a.id}`); // between the page's read and its items' reads
      return page;
    };
    const r = await s.call("GET", "/api/v1/rundowns");
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body.rundowns.map((x: { title: string }) => x.title), ["B"]);
  } finally {
    await s.close();
  }
});
