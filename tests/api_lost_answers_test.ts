/**
 * An API call whose commit landed but whose answer was lost (the call made again, the second try
 * failing on the first's write — Deno's KV Connect client while its server restarts) answers as if
 * the answer had come, and applies its change once.
 */
import assert from "node:assert/strict";
import { revokeKey } from "../lib/accounts/accounts.ts";
import type { DueItem, OnCommitted } from "../lib/kv/store.ts";
import { setup } from "./helpers.ts";
import { loseTimerChangeAnswers } from "./lost_answers.ts";

Deno.test("an adjust whose answer was lost counts once, and a pause whose answer was lost answers 200", async () => {
  const s = await setup();
  const lost = loseTimerChangeAnswers(s);
  try {
    const t = await s.create({ type: "countdown", duration: 600 });
    await s.act(t.timer_id, "start");
    lost.lose = 1;
    const adjusted = await s.call("PATCH", `/api/v1/timers/${t.timer_id}/state`, {
      body: { action: "adjust", seconds: 60 },
    });
    assert.equal(lost.lose, 0, "the adjust's answer was lost");
    assert.equal(adjusted.status, 200);
    assert.equal(adjusted.body.remaining_seconds, 660, "60 s added once");
    lost.lose = 1;
    const paused = await s.call("PATCH", `/api/v1/timers/${t.timer_id}/state`, { body: { action: "pause" } });
    assert.equal(lost.lose, 0, "the pause's answer was lost");
    assert.equal(paused.status, 200, JSON.stringify(paused.body));
    assert.equal(paused.body.state, "paused");
    const read = await s.call("GET", `/api/v1/timers/${t.timer_id}`);
    assert.equal(read.body.remaining_seconds, 660);
    assert.equal(read.body.state, "paused");
  } finally {
    await s.close();
  }
});

Deno.test("a creation whose answer was lost answers 201 with the timer it stored", async () => {
  const s = await setup();
  const lost = loseTimerChangeAnswers(s);
  try {
    lost.lose = 1;
    const r = await s.call("POST", "/api/v1/timers", { body: { type: "countdown", duration: 90, title: "Tea" } });
    assert.equal(lost.lose, 0, "the creation's answer was lost");
    assert.equal(r.status, 201, JSON.stringify(r.body));
    const list = await s.call("GET", "/api/v1/timers");
    assert.deepEqual(list.body.timers.map((t: { timer_id: string }) => t.timer_id), [r.body.timer_id]);
  } finally {
    await s.close();
  }
});

Deno.test("an adjust whose answer was lost counts once though another client's change landed before it was read again", async () => {
  const s = await setup();
  let id = "";
  const lost = loseTimerChangeAnswers(s, {
    // Decided on the adjust's own write: that write is the record it replaces.
    async meanwhile() {
      const r = await s.call("PATCH", `/api/v1/timers/${id}/state`, { body: { action: "adjust", seconds: 30 } });
      assert.equal(r.status, 200);
    },
  });
  try {
    id = (await s.create({ type: "countdown", duration: 600 })).timer_id;
    await s.act(id, "start");
    lost.lose = 1;
    const adjusted = await s.call("PATCH", `/api/v1/timers/${id}/state`, { body: { action: "adjust", seconds: 60 } });
    assert.equal(lost.lose, 0, "the adjust's answer was lost");
    assert.equal(adjusted.status, 200, JSON.stringify(adjusted.body));
    const read = await s.call("GET", `/api/v1/timers/${id}`);
    assert.equal(read.body.remaining_seconds, 690, "60 s added once, and the other client's 30 s");
  } finally {
    await s.close();
  }
});

Deno.test("a stop of a rundown's item in overtime whose answer was lost answers 200, the show advanced once", async () => {
  const s = await setup();
  const lost = loseTimerChangeAnswers(s);
  try {
    const items = [{ type: "countdown", duration: 10, overtime: true }, { type: "countdown", duration: 30 }];
    const r = await s.call("POST", "/api/v1/rundowns", { body: { mode: "linked", items } });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    const [one, two] = r.body.items.map((i: { timer_id: string }) => i.timer_id);
    await s.call("POST", `/api/v1/rundowns/${r.body.rundown_id}/actions/start`);
    s.clock.advance(25_000);
    // What the scheduler of this process is told to arm.
    const link = s.app.timers.link as { committed: OnCommitted };
    const armed: DueItem[] = [];
    const committed = link.committed;
    link.committed = (c) => (armed.push(...c.due), committed(c));
    lost.lose = 1;
    const stopped = await s.act(one, "stop");
    assert.equal(lost.lose, 0, "the stop's answer was lost");
    assert.equal(stopped.status, 200, JSON.stringify(stopped.body));
    assert.equal(stopped.body.state, "stopped");
    const show = (await s.call("GET", `/api/v1/rundowns/${r.body.rundown_id}`)).body;
    assert.equal(show.current, 1);
    assert.equal((await s.call("GET", `/api/v1/timers/${two}`)).body.state, "running");
    assert.ok(armed.some((d) => d.ref === two && d.at === s.clock.now() + 30_000), "the next item's end is armed");
  } finally {
    await s.close();
  }
});

Deno.test("a creation whose answer was lost answers 201 though its API key was revoked before it was read again", async () => {
  const s = await setup();
  const lost = loseTimerChangeAnswers(s, {
    async meanwhile() {
      await revokeKey(s.store, s.pro.account.id, s.pro.key.id);
    },
  });
  try {
    lost.lose = 1;
    const r = await s.call("POST", "/api/v1/timers", { body: { type: "countdown", duration: 90 } });
    assert.equal(lost.lose, 0, "the creation's answer was lost");
    assert.equal(r.status, 201, JSON.stringify(r.body));
    assert.ok(await s.store.getTimer(r.body.timer_id), "it was created");
  } finally {
    await s.close();
  }
});

Deno.test("a delete whose answer was lost answers 200, as a delete does; deleting it again answers 404", async () => {
  const s = await setup();
  const lost = loseTimerChangeAnswers(s);
  try {
    const t = await s.create({ type: "countdown", duration: 600 });
    lost.lose = 1;
    const deleted = await s.call("DELETE", `/api/v1/timers/${t.timer_id}`);
    assert.equal(lost.lose, 0, "the delete's answer was lost");
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    assert.deepEqual(deleted.body, { deleted: true, timer_id: t.timer_id });
    assert.equal((await s.call("GET", `/api/v1/timers/${t.timer_id}`)).status, 404);
    assert.equal((await s.call("DELETE", `/api/v1/timers/${t.timer_id}`)).status, 404, "gone when the call began");
  } finally {
    await s.close();
  }
});

Deno.test("a delete in two commits whose first answer was lost answers 200 and removes its log and tombstone", async () => {
  const s = await setup();
  const lost = loseTimerChangeAnswers(s);
  try {
    // No scheduler hears of these commits: every event's delivery waits, pending, in KV.
    s.app.timers.link = undefined;
    const t = await s.create({ type: "countdown", duration: 600, webhook_url: "http://127.0.0.1:9/hook" });
    await s.act(t.timer_id, "start");
    for (let i = 0; i < 10; i++) {
      await s.act(t.timer_id, "pause");
      await s.act(t.timer_id, "resume");
    }
    // Commits hold 20 mutations here: the timer and its 21 deliveries cannot go in one.
    s.store.opts.limits = { checks: 100, mutations: 20, bytes: 800 * 1024, keyBytes: 80 * 1024 };
    lost.lose = 1;
    const deleted = await s.call("DELETE", `/api/v1/timers/${t.timer_id}`);
    assert.equal(lost.lose, 0, "the first commit's answer was lost");
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    assert.equal((await s.store.deliveries.deliveryLog(t.timer_id)).length, 0, "its log is gone");
    assert.deepEqual(await Array.fromAsync(s.kv.list({ prefix: ["timer_gone"] })), [], "and its tombstone");
  } finally {
    await s.close();
  }
});
