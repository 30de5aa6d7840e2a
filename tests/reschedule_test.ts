/** PATCH /timers/:id reschedules in place: a countdown's duration, an event's target_date (injected clock). */
import assert from "node:assert/strict";
import { advance, clocked, receiver, setup } from "./helpers.ts";

/** The app with an injected clock, in sweep mode, its scheduler started. */

const iso = (ms: number) => new Date(ms).toISOString();

Deno.test("a countdown's duration changes while idle or stopped, keeping id and links; running answers 409 saying why", async () => {
  const s = await setup();
  const t = await s.create({ type: "countdown", duration: 60, warn_at: 30 });
  const path = `/api/v1/timers/${t.timer_id}`;
  const r = await s.call("PATCH", path, { body: { duration: 600 } });
  assert.equal(r.status, 200);
  assert.deepEqual([r.body.timer_id, r.body.duration, r.body.remaining_seconds], [t.timer_id, 600, 600]);
  assert.equal(r.body.viewer_url, t.viewer_url);
  assert.equal(r.body.embed_url, t.embed_url);

  await s.act(t.timer_id, "start");
  const running = await s.call("PATCH", path, { body: { duration: 90 } });
  assert.equal(running.status, 409);
  assert.equal(running.body.error.field, "duration");
  assert.match(
    running.body.error.message,
    /duration can change only while the timer is idle or stopped; it is running/,
  );

  s.clock.advance(100_000);
  assert.equal((await s.act(t.timer_id, "stop")).status, 200);
  const stopped = await s.call("PATCH", path, { body: { duration: 900 } });
  assert.equal(stopped.status, 200);
  assert.equal(stopped.body.remaining_seconds, 800, "the time run so far counts against the new duration");
  const reset = await s.act(t.timer_id, "reset");
  assert.equal(reset.body.remaining_seconds, 900);
  await s.close();
});

Deno.test("a new duration must stay above warn_at and danger_at (422 naming the field), or change them with it", async () => {
  const s = await setup();
  const t = await s.create({ type: "countdown", duration: 600, warn_at: 120, danger_at: 60 });
  const path = `/api/v1/timers/${t.timer_id}`;
  const low = await s.call("PATCH", path, { body: { duration: 100 } });
  assert.equal(low.status, 422);
  assert.equal(low.body.error.field, "duration");
  assert.match(low.body.error.message, /above warn_at \(120 s\)/);
  const both = await s.call("PATCH", path, { body: { duration: 100, warn_at: 100 } });
  assert.equal(both.status, 422);
  assert.equal(both.body.error.field, "warn_at");
  const ok = await s.call("PATCH", path, { body: { duration: 100, warn_at: 50, danger_at: 20 } });
  assert.equal(ok.status, 200);
  assert.deepEqual([ok.body.duration, ok.body.warn_at, ok.body.danger_at], [100, 50, 20]);
  await s.close();
});

Deno.test("fields of another type or that never change say so; unknown ones still ask to check the spelling", async () => {
  const s = await setup();
  const c = await s.create({ type: "countdown", duration: 60 });
  const e = await s.create({ type: "event", target_date: iso(s.clock.now() + 3_600_000) });
  const i = await s.create({ type: "interval", work: 10, rest: 5 });
  const patch = (id: string, body: unknown) => s.call("PATCH", `/api/v1/timers/${id}`, { body });
  const cases: [string, unknown, number, string, RegExp][] = [
    [c.timer_id, { target_date: iso(s.clock.now() + 60_000) }, 422, "target_date", /only on event timers.*duration/],
    [e.timer_id, { duration: 60 }, 422, "duration", /only on countdown timers.*target_date instead/],
    [i.timer_id, { duration: 60 }, 422, "duration", /only on countdown timers; this one is interval/],
    [i.timer_id, { work: 20 }, 422, "work", /work cannot change after creation/],
    [c.timer_id, { type: "event" }, 422, "type", /type cannot change after creation/],
    [c.timer_id, { durration: 60 }, 422, "durration", /unknown field "durration"; check its spelling/],
  ];
  for (const [id, body, status, field, message] of cases) {
    const r = await patch(id, body);
    assert.equal(r.status, status, JSON.stringify(body));
    assert.equal(r.body.error.field, field, JSON.stringify(body));
    assert.match(r.body.error.message, message);
  }
  await s.close();
});

Deno.test("an event's target_date follows the 10-year and future rules; completed and stopped events answer 409", async () => {
  const s = await setup();
  const e = await s.create({ type: "event", target_date: iso(s.clock.now() + 60_000) });
  const path = `/api/v1/timers/${e.timer_id}`;
  const past = await s.call("PATCH", path, { body: { target_date: iso(s.clock.now() - 1000) } });
  assert.deepEqual([past.status, past.body.error.field], [422, "target_date"]);
  assert.match(past.body.error.message, /in the future/);
  const far = await s.call("PATCH", path, { body: { target_date: iso(s.clock.now() + 3660 * 86400_000) } });
  assert.deepEqual([far.status, far.body.error.field], [422, "target_date"]);
  assert.match(far.body.error.message, /at most 10 years ahead/);
  const later = s.clock.now() + 60 * 86400_000;
  const moved = await s.call("PATCH", path, { body: { target_date: iso(later) } });
  assert.equal(moved.status, 200);
  assert.equal(moved.body.target_date, iso(later));
  assert.equal(moved.body.duration, 60 * 86400);
  assert.ok(Date.parse(moved.body.expires_at) >= later + 7 * 86400_000, "expires_at follows the new date");

  await s.act(e.timer_id, "stop");
  const stopped = await s.call("PATCH", path, { body: { target_date: iso(s.clock.now() + 120_000) } });
  assert.equal(stopped.status, 409);
  assert.equal(stopped.body.error.field, "target_date");
  assert.match(stopped.body.error.message, /it is stopped/);

  const done = await s.create({ type: "event", target_date: iso(s.clock.now() + 1000) });
  s.clock.advance(2000);
  const completed = await s.call("PATCH", `/api/v1/timers/${done.timer_id}`, {
    body: { target_date: iso(s.clock.now() + 60_000) },
  });
  assert.equal(completed.status, 409);
  assert.match(completed.body.error.message, /it is completed/);
  await s.close();
});

Deno.test("a rescheduled event completes at the new instant, once; the old instant sends nothing", async () => {
  for (const direction of ["later", "earlier"] as const) {
    const s = await clocked();
    const rx = receiver();
    const t0 = s.clock.now();
    const old = t0 + 60_000;
    const next = direction === "later" ? t0 + 120_000 : t0 + 30_000;
    const e = await s.create({ type: "event", target_date: iso(old), webhook_url: rx.url });
    // A control timer on the old instant: it fires there, so the old instant was really reached and swept.
    const control = await s.create({ type: "event", target_date: iso(old), webhook_url: rx.url });
    const r = await s.call("PATCH", `/api/v1/timers/${e.timer_id}`, { body: { target_date: iso(next) } });
    assert.equal(r.status, 200);

    await advance(s, old - t0 + 1000);
    await rx.waitFor(direction === "later" ? 1 : 2);
    const byTimer = (id: string) => rx.received.filter((x) => x.json.timer_id === id);
    assert.equal(byTimer(control.timer_id).length, 1);
    if (direction === "later") {
      assert.equal(byTimer(e.timer_id).length, 0, "nothing at the old instant");
      assert.equal((await s.call("GET", `/api/v1/timers/${e.timer_id}`)).body.state, "idle");
      await advance(s, next - s.clock.now() + 1000);
      await rx.waitFor(2);
    }
    await advance(s, 300_000);
    const sent = byTimer(e.timer_id);
    assert.equal(sent.length, 1, `${direction}: exactly one completion`);
    assert.equal(sent[0].json.event, "timer.completed");
    assert.equal(sent[0].json.timestamp, iso(next));
    assert.equal((sent[0].json.data as { completed_at: string }).completed_at, iso(next));
    await s.close();
    await rx.close();
  }
});
