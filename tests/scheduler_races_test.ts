/** Races between the scheduler's steps and changes made through the API at the same instant. */
import assert from "node:assert/strict";
import { key } from "../lib/kv/keys.ts";
import { DROPPED_FOR_NEW_URL } from "../lib/webhooks/delivery_model.ts";
import { Scheduler } from "../lib/webhooks/scheduler.ts";
import { receiver, setup } from "./helpers.ts";

Deno.test("a stale step does not delete the due entry a reset wrote meanwhile", async () => {
  const s = await setup();
  const target = new Date(s.clock.now() + 60_000).toISOString();
  const t = await s.create({ type: "event", target_date: target });
  const id: string = t.timer_id;
  const at = Date.parse(target);
  const timers = s.store.timers;
  // The completion step reads the due entry; a stop lands before it commits.
  const [read] = await Array.fromAsync(timers.recordsAt([at]));
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
  await s.app.scheduler.steps.stepTimer(id, read[0]);
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

Deno.test("a new webhook_url drops retries to the old one, logged; an event not yet attempted still goes", async () => {
  const s = await setup({ config: { webhookRetryDelays: [60] } });
  const release = Promise.withResolvers<void>();
  const old = receiver(async (n) => {
    if (n === 1) return new Response("busy", { status: 503 });
    await release.promise;
    return new Response("ok");
  });
  const next = receiver();
  const t = await s.create({ type: "countdown", duration: 600, webhook_url: old.url });
  const id: string = t.timer_id;
  await s.act(id, "start");
  await old.waitFor(1);
  await s.app.scheduler.settled();
  // The second event is on its way (no attempt recorded) when the URL changes.
  await s.act(id, "pause");
  await old.waitFor(2);
  assert.equal((await s.call("PATCH", `/api/v1/timers/${id}`, { body: { webhook_url: next.url } })).status, 200);
  release.resolve();
  await s.app.scheduler.settled();
  const log = (await s.store.deliveries.deliveryLog(id)).map((e) => e.delivery);
  const paused = log.find((d) => d.payload.event === "timer.paused")!;
  const started = log.find((d) => d.payload.event === "timer.started")!;
  assert.equal(paused.state, "succeeded");
  assert.equal(paused.url, old.url);
  assert.equal(paused.attempts.length, 1);
  assert.equal(started.state, "failed");
  assert.equal(started.next_attempt_at, null);
  assert.deepEqual(started.attempts.map((a) => [a.status, a.error]), [[503, `HTTP 503; ${DROPPED_FOR_NEW_URL}`]]);
  // No retry follows, to either URL.
  s.clock.advance(120_000);
  await s.app.scheduler.sweep();
  await s.app.scheduler.settled();
  assert.equal(old.received.length, 2);
  assert.equal(next.received.length, 0);
  await s.close();
  await old.close();
  await next.close();
});

/**
 * Fifteen events due at one instant, read in pages of 5, woken twice at once; each commit of
 * changes waits `delayMs(n)` (n counts the commits). Returns the timers and the ids planned.
 */
async function twoWakeUpsOfFifteen(delayMs: (n: number) => number) {
  const s = await setup();
  const target = new Date(s.clock.now() + 60_000).toISOString();
  const ids = new Set<string>();
  for (let i = 0; i < 15; i++) ids.add((await s.create({ type: "event", target_date: target })).timer_id);
  const timers = s.store.timers;
  const recordsAt = timers.recordsAt.bind(timers);
  timers.recordsAt = (instants, ranges, also) => recordsAt(instants, ranges, also, 5);
  const commitTimers = timers.commitTimers.bind(timers);
  const stepped: string[] = [];
  let calls = 0;
  timers.commitTimers = async (changes) => {
    for (const c of changes) stepped.push(c.timer.id);
    await new Promise((r) => setTimeout(r, delayMs(++calls)));
    return await commitTimers(changes);
  };
  s.clock.advance(60_000);
  const at = Date.parse(target);
  await Promise.all([s.app.scheduler.runAt([at]), s.app.scheduler.runAt([at])]);
  return { s, ids, stepped };
}

Deno.test("two wake-ups of one instant do not both step a timer, also when one waits for a free slot", async () => {
  // Slow commits: the first wake-up waits for a slot before its third page while the second,
  // which skipped the pages in flight, takes that page at once.
  const { s, ids, stepped } = await twoWakeUpsOfFifteen(() => 50);
  assert.equal(stepped.length, 15, `${stepped.length} changes planned for 15 timers`);
  assert.deepEqual(new Set(stepped), ids);
  for (const id of ids) assert.equal((await s.store.timers.getTimer(id))?.timer.state, "completed");
  await s.app.scheduler.settled();
  await s.close();
});

Deno.test("a page whose step ended while another wake-up waited for a slot is not planned again", async () => {
  // The first wake-up's two pages commit slowly; the third page, taken by the second wake-up
  // while the first waits for a slot, commits at once and ends before that wait does.
  const { s, stepped } = await twoWakeUpsOfFifteen((n) => n <= 2 ? 80 : 0);
  assert.equal(stepped.length, 15, `${stepped.length} changes planned for 15 timers`);
  await s.app.scheduler.settled();
  await s.close();
});

Deno.test("the due heap lets go of deadlines that moved: a far-off timer paused and resumed again and again holds it bounded", async () => {
  const s = await setup();
  // This scheduler arms what the API commits (the app's own one is not started here).
  const scheduler = new Scheduler({ store: s.store, config: s.app.config, now: s.clock.now, reloadMin: 20 });
  s.app.timers.link = scheduler;
  const { timer_id: id } = await s.create({ type: "countdown", duration: 365 * 86400 });
  assert.equal((await s.act(id, "start")).status, 200);
  for (let i = 0; i < 100; i++) {
    assert.equal((await s.act(id, "pause")).status, 200);
    s.clock.advance(1000); // paused a second: each resume moves the deadline
    assert.equal((await s.act(id, "resume")).status, 200);
  }
  await scheduler.settled();
  assert.ok(scheduler.armed <= 40, `${scheduler.armed} instants held for one deadline`);
  // The deadline it has now is still held: the timer completes then.
  const due = (await s.store.timers.getTimer(id))!.timer.due_at!;
  s.clock.t = due;
  await scheduler.settled();
  assert.equal((await s.store.timers.getTimer(id))!.timer.state, "completed");
  await scheduler.stop();
  await s.close();
});
