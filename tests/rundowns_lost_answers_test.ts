/**
 * Rundown calls whose commit landed but whose answer was lost (the call made again, the second try
 * failing on the first's write — Deno's KV Connect client while its server restarts) answer as if
 * the answer had come, and apply their change once (tests/lost_answers.ts loses the answers).
 */
import assert from "node:assert/strict";
import { REMOTE_KV_LIMITS } from "../lib/kv/batch.ts";
import { setup } from "./helpers.ts";
import { rundown, talk } from "./rundown_helpers.ts";
import { loseTimerChangeAnswers } from "./lost_answers.ts";

type S = Awaited<ReturnType<typeof setup>>;

const HOOK = "http://127.0.0.1:9/hook";

/** The events of the rundown's delivery log, oldest first. */
async function rundownEvents(s: S, id: string): Promise<string[]> {
  const log = await s.store.deliveries.deliveryLog(id);
  return log.map((e) => e.delivery).sort((a, b) => a.created_at - b.created_at).map((d) => d.payload.event);
}

Deno.test("a rundown creation whose answer was lost answers 201, the rundown and its timers stored once", async () => {
  const s = await setup();
  const lost = loseTimerChangeAnswers(s);
  try {
    // A limited plan (its creations serialised by the account's sequence) and an unlimited one.
    for (const key of [s.pro.apiKey, s.enterprise.apiKey]) {
      const existing = await s.create(talk("Keynote", 600), key);
      lost.lose = 1;
      const r = await s.call("POST", "/api/v1/rundowns", {
        key,
        body: { title: "Morning", items: [{ timer_id: existing.timer_id }, talk("Talk", 300)] },
      });
      assert.equal(lost.lose, 0, "the creation's answer was lost");
      assert.equal(r.status, 201, JSON.stringify(r.body));
      assert.match(r.body.control_url, /#tct_/);
      const rundowns = (await s.call("GET", "/api/v1/rundowns", { key })).body.rundowns;
      assert.deepEqual(rundowns.map((x: { rundown_id: string }) => x.rundown_id), [r.body.rundown_id]);
      const timers = (await s.call("GET", "/api/v1/timers", { key })).body.timers;
      assert.equal(timers.length, 2, "the existing timer and the one created with the rundown");
    }
  } finally {
    await s.close();
  }
});

Deno.test("a rundown PATCH whose answer was lost answers 200, and an item created with it that it removes is deleted", async () => {
  const s = await setup();
  const lost = loseTimerChangeAnswers(s);
  try {
    const { id, ids } = await rundown(s, { items: [talk("One", 60), talk("Two", 60)] });
    lost.lose = 1;
    const r = await s.call("PATCH", `/api/v1/rundowns/${id}`, {
      body: { title: "Evening", items: [{ timer_id: ids[0] }, talk("Three", 30)] },
    });
    assert.equal(lost.lose, 0, "the PATCH's answer was lost");
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.title, "Evening");
    assert.deepEqual(r.body.items.map((i: { title: string }) => i.title), ["One", "Three"]);
    assert.equal((await s.call("GET", `/api/v1/timers/${ids[1]}`)).status, 404, "the removed item's timer is deleted");
    assert.equal((await s.call("GET", "/api/v1/timers")).body.timers.length, 2);
  } finally {
    await s.close();
  }
});

Deno.test("rundown actions whose answers were lost answer 200 and send their events once", async () => {
  const s = await setup();
  const lost = loseTimerChangeAnswers(s);
  try {
    s.app.timers.link = undefined; // deliveries wait, pending, in the log
    const { id, ids } = await rundown(s, { items: [talk("One", 60), talk("Two", 60)], webhook_url: HOOK });
    const act = async (action: string, index?: number) => {
      s.clock.advance(1000); // its events logged after the last action's
      lost.lose = 1;
      const r = await s.call("PATCH", `/api/v1/rundowns/${id}/state`, { body: { action, index } });
      assert.equal(lost.lose, 0, `the ${action}'s answer was lost`);
      assert.equal(r.status, 200, `${action}: ${JSON.stringify(r.body)}`);
      return r.body;
    };
    assert.equal((await act("start")).state, "running");
    const next = await act("next");
    assert.equal(next.current, 1);
    assert.deepEqual(next.items.map((i: { state: string }) => i.state), ["stopped", "running"]);
    assert.equal((await act("goto", 0)).current, 0);
    assert.equal((await act("start")).state, "running");
    assert.equal((await act("stop")).state, "stopped");
    assert.deepEqual(await rundownEvents(s, id), ["rundown.started", "rundown.advanced", "rundown.advanced"]);
    const one = await s.call("GET", `/api/v1/timers/${ids[0]}`);
    assert.equal(one.body.state, "stopped");
  } finally {
    await s.close();
  }
});

Deno.test("a rundown DELETE whose answer was lost answers 200 and deletes the timers created with it", async () => {
  const s = await setup();
  const lost = loseTimerChangeAnswers(s);
  try {
    const existing = await s.create(talk("Keynote", 600));
    const { id, ids } = await rundown(s, { items: [{ timer_id: existing.timer_id }, talk("Two", 60)] });
    lost.lose = 1;
    const r = await s.call("DELETE", `/api/v1/rundowns/${id}`);
    assert.equal(lost.lose, 0, "the delete's answer was lost");
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body, { deleted: true, rundown_id: id });
    assert.equal((await s.call("GET", `/api/v1/rundowns/${id}`)).status, 404);
    assert.equal((await s.call("GET", `/api/v1/timers/${ids[1]}`)).status, 404, "its own timer is deleted");
    assert.equal((await s.store.getTimer(existing.timer_id))?.timer.rundown_id, null, "the existing one left it");
    assert.deepEqual(await Array.fromAsync(s.kv.list({ prefix: ["timer_gone"] })), [], "its tombstone is removed");
    assert.equal((await s.call("DELETE", `/api/v1/rundowns/${id}`)).status, 404, "gone when the call began");
  } finally {
    await s.close();
  }
});

Deno.test("over KV Connect's 10 checks (a rundown written in steps) a PATCH whose marks' answer was lost answers 200", async () => {
  const s = await setup();
  const lost = loseTimerChangeAnswers(s);
  try {
    for (const store of [s.store.rundowns, s.store.timers]) {
      Object.defineProperty(store, "limits", { get: () => REMOTE_KV_LIMITS });
    }
    const { id, ids } = await rundown(s, { items: [talk("Opening", 60)] });
    const joining: string[] = [];
    for (let i = 0; i < 9; i++) joining.push((await s.create(talk(`T${i}`, 60))).timer_id);
    lost.lose = 1;
    const r = await s.call("PATCH", `/api/v1/rundowns/${id}`, {
      body: { items: [{ timer_id: ids[0] }, ...joining.map((timer_id) => ({ timer_id }))] },
    });
    assert.equal(lost.lose, 0, "the marks' answer was lost");
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.items.length, 10);
    for (const t of joining) assert.equal((await s.store.getTimer(t))?.timer.rundown_id, id);
  } finally {
    await s.close();
  }
});
