/**
 * An API call whose commit landed but whose answer was lost (the call made again, the second try
 * failing on the first's write — Deno's KV Connect client while its server restarts) answers as if
 * the answer had come, and applies its change once.
 */
import assert from "node:assert/strict";
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
