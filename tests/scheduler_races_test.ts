/** Races between the scheduler's steps and changes made through the API at the same instant. */
import assert from "node:assert/strict";
import { key } from "../lib/kv/keys.ts";
import { setup } from "./helpers.ts";

Deno.test("a stale step does not delete the due entry a reset wrote meanwhile", async () => {
  const s = await setup();
  const target = new Date(s.clock.now() + 60_000).toISOString();
  const t = await s.create({ type: "event", target_date: target });
  const id: string = t.timer_id;
  const at = Date.parse(target);
  const timers = s.store.timers;
  // The completion step reads the due entry; a stop lands before it commits.
  const [read] = await Array.fromAsync(timers.entriesOf([{ at, kind: "timer", ref: id }]));
  assert.equal(read.length, 1);
  assert.equal((await s.act(id, "stop")).status, 200);
  // The step reads the stopped timer; a reset (same due key) commits before its tidy-up runs.
  const getTimer = timers.getTimer.bind(timers);
  let once = true;
  timers.getTimer = async (x: string) => {
    const r = await getTimer(x);
    if (once) {
      once = false;
      assert.equal((await s.act(id, "reset")).status, 200);
    }
    return r;
  };
  await s.app.scheduler.stepTimer(id, read[0]);
  timers.getTimer = getTimer;
  assert.equal((await getTimer(id))?.timer.due_at, at);
  assert.notEqual((await s.kv.get(key.due(at, "timer", id))).versionstamp, null);
  assert.notEqual((await s.kv.get(key.dueRecord(at, "timer", id))).versionstamp, null);
  // And the timer completes at its target.
  s.clock.advance(60_000);
  await s.app.scheduler.sweep();
  await s.app.scheduler.settled();
  assert.equal((await getTimer(id))?.timer.state, "completed");
  await s.close();
});
