/**
 * Running a show through the API on the injected clock: zone crossings sent by the scheduler at
 * their instant and once, overtime and its limit, adjust, actions without a body, messages.
 */
import assert from "node:assert/strict";
import { key } from "../lib/kv/keys.ts";
import { Scheduler } from "../lib/webhooks/scheduler.ts";
import { receiver, setup } from "./helpers.ts";

type S = Awaited<ReturnType<typeof setup>>;
type Rx = ReturnType<typeof receiver>;

/** Moves the clock to `at` and lets the scheduler run what is due by then (deliveries included). */
async function until(s: S, at: number) {
  s.clock.t = at;
  await s.app.scheduler.settled();
}

const events = (rx: Rx) => rx.received.map((r) => r.json.event);
// deno-lint-ignore no-explicit-any
const last = (rx: Rx, event: string): any => rx.received.findLast((r) => r.json.event === event)?.json;

async function world() {
  const s = await setup();
  const rx = receiver();
  return {
    s,
    rx,
    async close() {
      await s.close();
      await rx.close();
    },
  };
}

Deno.test("timer.warning and timer.danger are sent at the instant the count crosses them, once, from the due index", async () => {
  const { s, rx, close } = await world();
  const t = await s.create({ type: "countdown", duration: 60, warn_at: 20, danger_at: 5, webhook_url: rx.url });
  assert.equal(t.zone, "normal");
  assert.equal(t.warn_at, 20);
  const start = s.clock.now();
  await s.act(t.timer_id, "start");
  await s.app.scheduler.settled();
  // The first instant in the index is the warning's, written with the start.
  const warnAt = start + 40_000;
  assert.notEqual((await s.kv.get(key.due(warnAt, "timer", t.timer_id))).versionstamp, null);
  await until(s, warnAt - 1);
  assert.deepEqual(events(rx), ["timer.started"]);
  assert.equal((await s.call("GET", `/api/v1/timers/${t.timer_id}`)).body.zone, "normal");
  await until(s, warnAt);
  await rx.waitFor(2);
  const warning = last(rx, "timer.warning");
  assert.deepEqual(warning.data, { zone: "warning", remaining_seconds: 20 });
  assert.equal(warning.timestamp, new Date(warnAt).toISOString());
  assert.equal((await s.call("GET", `/api/v1/timers/${t.timer_id}`)).body.zone, "warning");
  // Wake-ups and sweeps again at the same instant send nothing more.
  await s.app.scheduler.sweep();
  await s.app.scheduler.runAt([warnAt]);
  await until(s, start + 55_000 - 1);
  assert.deepEqual(events(rx), ["timer.started", "timer.warning"]);
  await until(s, start + 55_000);
  await rx.waitFor(3);
  assert.deepEqual(last(rx, "timer.danger").data, { zone: "danger", remaining_seconds: 5 });
  await until(s, start + 60_000);
  await rx.waitFor(4);
  assert.deepEqual(events(rx), ["timer.started", "timer.warning", "timer.danger", "timer.completed"]);
  assert.equal(last(rx, "timer.completed").data.overtime, undefined);
  const done = (await s.call("GET", `/api/v1/timers/${t.timer_id}`)).body;
  assert.equal(done.state, "completed");
  await close();
});

Deno.test("pause and resume inside a zone send nothing again; reset re-arms; a start inside a zone sends nothing", async () => {
  const { s, rx, close } = await world();
  const t = await s.create({ type: "countdown", duration: 30, warn_at: 10, webhook_url: rx.url });
  const id = t.timer_id;
  await s.act(id, "start");
  await until(s, s.clock.now() + 21_000);
  await rx.waitFor(2);
  assert.equal((await s.act(id, "pause")).body.zone, "warning");
  await until(s, s.clock.now() + 60_000);
  await s.act(id, "resume");
  await until(s, s.clock.now() + 5_000);
  await s.act(id, "reset");
  await s.app.scheduler.settled();
  assert.deepEqual(events(rx).sort(), [
    "timer.paused",
    "timer.reset",
    "timer.resumed",
    "timer.started",
    "timer.warning",
  ]);
  // Reset re-arms: the next run crosses it again.
  await s.act(id, "start");
  await until(s, s.clock.now() + 20_000);
  await rx.waitFor(7);
  assert.equal(events(rx).filter((e) => e === "timer.warning").length, 2);
  await s.act(id, "stop");
  await rx.waitFor(8);

  // An event created inside its warning zone did not cross it.
  const target = new Date(s.clock.now() + 30_000).toISOString();
  const e = await s.create({ type: "event", target_date: target, warn_at: 60, danger_at: 10, webhook_url: rx.url });
  assert.equal(e.zone, "warning");
  const before = rx.received.length;
  await until(s, Date.parse(target) - 10_000);
  await rx.waitFor(before + 1);
  assert.deepEqual(
    rx.received.slice(before).map((r) => [r.json.timer_id, r.json.event]),
    [[e.timer_id, "timer.danger"]],
  );
  await close();
});

Deno.test("adjust moves the deadline, the due index and expires_at in one commit and re-arms a threshold", async () => {
  const { s, rx, close } = await world();
  const t = await s.create({ type: "countdown", duration: 60, warn_at: 30, webhook_url: rx.url });
  const id = t.timer_id;
  const start = s.clock.now();
  await s.act(id, "start");
  await until(s, start + 35_000);
  await rx.waitFor(2);
  const r = await s.call("PATCH", `/api/v1/timers/${id}/state`, { body: { action: "adjust", seconds: 60 } });
  assert.equal(r.status, 200);
  assert.equal(r.body.added_seconds, 60);
  assert.equal(r.body.remaining_seconds, 85);
  assert.equal(r.body.duration, 60, "the planned duration stays");
  assert.equal(r.body.zone, "normal");
  const stored = (await s.store.timers.getTimer(id))!.timer;
  // The next instant is the re-armed warning (85 − 30 = 55 s from now), in the index.
  assert.equal(stored.due_at, start + 35_000 + 55_000);
  assert.notEqual((await s.kv.get(key.due(stored.due_at!, "timer", id))).versionstamp, null);
  assert.equal((await s.kv.get(key.due(start + 40_000, "timer", id))).versionstamp, null);
  assert.ok(stored.expires_at >= start + 120_000 + 7 * 86400_000);
  await rx.waitFor(3);
  assert.deepEqual(last(rx, "timer.adjusted").data, { seconds: 60, added_seconds: 60, remaining_seconds: 85 });
  await until(s, start + 90_000);
  await rx.waitFor(4);
  assert.deepEqual(last(rx, "timer.warning").data, { zone: "warning", remaining_seconds: 30 });
  assert.equal(last(rx, "timer.warning").timestamp, new Date(start + 90_000).toISOString());
  // Taking away more than is left completes it now.
  const cut = await s.call("POST", `/api/v1/timers/${id}/actions/adjust?seconds=-600`);
  assert.equal(cut.status, 200);
  assert.equal(cut.body.state, "completed");
  assert.equal(cut.body.completed_at, new Date(start + 90_000).toISOString());
  await rx.waitFor(6);
  assert.deepEqual(events(rx).slice(-2).sort(), ["timer.adjusted", "timer.completed"]);
  assert.equal(last(rx, "timer.adjusted").data.seconds, -30);
  // Reset forgets the adjustment.
  const reset = await s.act(id, "reset");
  assert.equal(reset.body.added_seconds, 0);
  assert.equal(reset.body.remaining_seconds, 60);
  await close();
});

Deno.test("adjust: 409 on events and timers not running or paused, 422 for 0 or out of range, control token allowed", async () => {
  const { s, close } = await world();
  const t = await s.create({ type: "countdown", duration: 60 });
  const id = t.timer_id;
  const token = new URL(t.control_url).hash.slice(1);
  const adjust = (seconds: unknown, k?: string) =>
    s.call("PATCH", `/api/v1/timers/${id}/state`, { body: { action: "adjust", seconds }, key: k });
  let r = await adjust(10);
  assert.equal(r.status, 409);
  assert.equal(r.body.error.field, "action");
  await s.act(id, "start");
  for (const bad of [0, 86_401, -86_401, 1.5, "10"]) {
    r = await adjust(bad);
    assert.equal(r.status, 422, JSON.stringify(bad));
    assert.equal(r.body.error.field, "seconds");
  }
  r = await s.call("PATCH", `/api/v1/timers/${id}/state`, { body: { action: "adjust" } });
  assert.equal(r.status, 422);
  assert.equal(r.body.error.field, "seconds");
  r = await adjust(-10, token);
  assert.equal(r.status, 200);
  assert.equal(r.body.remaining_seconds, 50);
  assert.equal(r.body.added_seconds, -10);
  assert.equal(r.body.webhook_url, undefined);
  const ev = await s.create({ type: "event", target_date: new Date(s.clock.now() + 600_000).toISOString() });
  r = await s.call("POST", `/api/v1/timers/${ev.timer_id}/actions/adjust?seconds=60`);
  assert.equal(r.status, 409);
  assert.match(r.body.error.message, /event/);
  await s.act(id, "stop");
  assert.equal((await adjust(5)).status, 409);
  await close();
});

Deno.test("an interval's adjust changes its current phase only; thresholds apply to every work phase", async () => {
  const { s, rx, close } = await world();
  const t = await s.create({ type: "interval", work: 20, rest: 10, rounds: 2, warn_at: 5, webhook_url: rx.url });
  const id = t.timer_id;
  const start = s.clock.now();
  await s.act(id, "start");
  await until(s, start + 15_000);
  await rx.waitFor(2);
  assert.deepEqual(last(rx, "timer.warning").data, { zone: "warning", remaining_seconds: 5, round: 1 });
  // +60 s lengthens the work phase back to its full length at most (15 s were done).
  const r = await s.call("POST", `/api/v1/timers/${id}/actions/adjust?seconds=60`);
  assert.equal(r.body.added_seconds, 15);
  assert.equal(r.body.interval.phase_remaining_seconds, 20);
  assert.equal(r.body.zone, "normal");
  await until(s, start + 30_000);
  await rx.waitFor(4);
  assert.equal(events(rx).filter((e) => e === "timer.warning").length, 2, "re-armed by the adjust");
  await until(s, start + 15_000 + 30_000 + 15_000);
  await rx.waitFor(6);
  assert.deepEqual(last(rx, "timer.warning").data, { zone: "warning", remaining_seconds: 5, round: 2 });
  // −60 s ends the work phase now (5 s were left): the rest phase begins.
  const cut = await s.call("POST", `/api/v1/timers/${id}/actions/adjust?seconds=-60`);
  assert.equal(cut.body.added_seconds, 10);
  assert.deepEqual(cut.body.interval, { round: 2, phase: "rest", phase_remaining_seconds: 10 });
  await close();
});

Deno.test("overtime: completion at zero with data.overtime, counting up, stop carries overtime_seconds", async () => {
  const { s, rx, close } = await world();
  const t = await s.create({ type: "countdown", duration: 10, overtime: true, webhook_url: rx.url });
  const id = t.timer_id;
  const start = s.clock.now();
  await s.act(id, "start");
  await until(s, start + 10_000);
  await rx.waitFor(2);
  const completed = last(rx, "timer.completed");
  assert.equal(completed.data.overtime, true);
  assert.equal(completed.data.completed_at, new Date(start + 10_000).toISOString());
  await until(s, start + 14_500);
  let read = (await s.call("GET", `/api/v1/timers/${id}`)).body;
  assert.equal(read.state, "running");
  assert.equal(read.zone, "overtime");
  assert.equal(read.remaining_seconds, 0);
  assert.equal(read.overtime_seconds, 4);
  // Pause and resume in overtime.
  await s.act(id, "pause");
  await until(s, start + 100_000);
  read = (await s.act(id, "resume")).body;
  assert.equal(read.overtime_seconds, 4);
  await until(s, start + 103_000);
  const stop = await s.act(id, "stop");
  assert.equal(stop.body.overtime_seconds, 7);
  await rx.waitFor(5);
  assert.deepEqual(last(rx, "timer.stopped").data, { state: "stopped", remaining_seconds: 0, overtime_seconds: 7 });
  assert.equal(events(rx).filter((e) => e === "timer.completed").length, 1);
  // Reset returns to idle.
  read = (await s.act(id, "reset")).body;
  assert.equal(read.state, "idle");
  assert.equal(read.zone, "normal");
  assert.equal(read.overtime_seconds, 0);
  await close();
});

Deno.test("overtime stops itself after 24 h with reason overtime_limit; taking away past zero enters overtime", async () => {
  const { s, rx, close } = await world();
  const t = await s.create({ type: "countdown", duration: 60, overtime: true, webhook_url: rx.url });
  const id = t.timer_id;
  await s.act(id, "start");
  const cut = await s.call("POST", `/api/v1/timers/${id}/actions/adjust?seconds=-120`);
  assert.equal(cut.body.state, "running");
  assert.equal(cut.body.zone, "overtime");
  assert.equal(cut.body.overtime_seconds, 0);
  const zero = s.clock.now();
  await s.app.scheduler.settled();
  await rx.waitFor(3);
  assert.deepEqual(events(rx).sort(), ["timer.adjusted", "timer.completed", "timer.started"]);
  const due = (await s.store.timers.getTimer(id))!.timer.due_at;
  assert.equal(due, zero + 86400_000);
  await until(s, zero + 86400_000 - 1);
  assert.equal((await s.call("GET", `/api/v1/timers/${id}`)).body.overtime_seconds, 86399);
  await until(s, zero + 86400_000);
  await rx.waitFor(4);
  assert.deepEqual(last(rx, "timer.stopped").data, {
    state: "stopped",
    remaining_seconds: 0,
    overtime_seconds: 86400,
    reason: "overtime_limit",
  });
  const read = (await s.call("GET", `/api/v1/timers/${id}`)).body;
  assert.equal(read.state, "stopped");
  assert.equal(read.overtime_seconds, 86400);
  await close();
});

Deno.test("thresholds are validated with field: range, below the duration or work, danger below warning", async () => {
  const { s, close } = await world();
  const cases: [Record<string, unknown>, string][] = [
    [{ type: "countdown", duration: 60, warn_at: 0 }, "warn_at"],
    [{ type: "countdown", duration: 60, warn_at: 60 }, "warn_at"],
    [{ type: "countdown", duration: 60, danger_at: 86_401 }, "danger_at"],
    [{ type: "countdown", duration: 60, warn_at: 10, danger_at: 10 }, "danger_at"],
    [{ type: "interval", work: 20, rest: 5, warn_at: 20 }, "warn_at"],
    [{ type: "interval", work: 20, rest: 5, overtime: true }, "overtime"],
    [{ type: "countdown", duration: 60, overtime: "yes" }, "overtime"],
    [{ type: "countdown", duration: 60, sound: "gong" }, "sound"],
  ];
  for (const [body, field] of cases) {
    const r = await s.call("POST", "/api/v1/timers", { body });
    assert.equal(r.status, 422, JSON.stringify(body));
    assert.equal(r.body.error.field, field, JSON.stringify(body));
  }
  const t = await s.create({ type: "countdown", duration: 60, warn_at: 30 });
  let r = await s.call("PATCH", `/api/v1/timers/${t.timer_id}`, { body: { danger_at: 30 } });
  assert.equal(r.status, 422);
  assert.equal(r.body.error.field, "danger_at");
  r = await s.call("PATCH", `/api/v1/timers/${t.timer_id}`, { body: { danger_at: 10, warn_at: null, sound: "beep" } });
  assert.equal(r.status, 200);
  assert.equal(r.body.sound, "beep");
  assert.equal(r.body.warn_at, null);
  assert.equal(r.body.danger_at, 10);
  await close();
});

Deno.test("a threshold set by PATCH while running counts from now: one already behind is not crossed", async () => {
  const { s, rx, close } = await world();
  const t = await s.create({ type: "countdown", duration: 60, webhook_url: rx.url });
  const id = t.timer_id;
  const start = s.clock.now();
  await s.act(id, "start");
  await until(s, start + 50_000);
  const r = await s.call("PATCH", `/api/v1/timers/${id}`, { body: { warn_at: 30, danger_at: 5 } });
  assert.equal(r.body.zone, "warning");
  await until(s, start + 55_000);
  await rx.waitFor(2);
  assert.deepEqual(events(rx), ["timer.started", "timer.danger"]);
  await close();
});

Deno.test("actions without a body: same answers and events as PATCH …/state; control token; no GET", async () => {
  const { s, rx, close } = await world();
  const t = await s.create({ type: "countdown", duration: 60, webhook_url: rx.url });
  const id = t.timer_id;
  const token = new URL(t.control_url).hash.slice(1);
  let r = await s.call("POST", `/api/v1/timers/${id}/actions/start`, { key: token });
  assert.equal(r.status, 200);
  assert.equal(r.body.state, "running");
  r = await s.call("POST", `/api/v1/timers/${id}/actions/start`, { key: token });
  assert.equal(r.status, 409);
  assert.equal(r.body.error.field, "action");
  r = await s.call("POST", `/api/v1/timers/${id}/actions/pause?seconds=5`);
  assert.equal(r.status, 422);
  assert.equal(r.body.error.field, "seconds");
  r = await s.call("POST", `/api/v1/timers/${id}/actions/adjust`);
  assert.equal(r.status, 422);
  assert.equal(r.body.error.field, "seconds");
  r = await s.call("POST", `/api/v1/timers/${id}/actions/adjust?seconds=abc`);
  assert.equal(r.status, 400);
  r = await s.call("POST", `/api/v1/timers/${id}/actions/explode`);
  assert.equal(r.status, 404);
  r = await s.call("GET", `/api/v1/timers/${id}/actions/start`);
  assert.equal(r.status, 405);
  assert.equal(r.headers.get("allow"), "POST, OPTIONS");
  r = await s.call("POST", `/api/v1/timers/${id}/actions/stop`, { key: "tct_" + "x".repeat(43) });
  assert.equal(r.status, 401);
  r = await s.call("POST", `/api/v1/timers/${id}/actions/pause`);
  assert.equal(r.status, 200);
  assert.equal(r.body.state, "paused");
  await s.app.scheduler.settled();
  await rx.waitFor(2);
  assert.deepEqual(events(rx).sort(), ["timer.paused", "timer.started"]);
  await close();
});

Deno.test("messages: set and cleared by key or control token, validated, on the timer, no webhook", async () => {
  const { s, rx, close } = await world();
  const t = await s.create({ type: "countdown", duration: 60, webhook_url: rx.url });
  const id = t.timer_id;
  const token = new URL(t.control_url).hash.slice(1);
  assert.equal(t.message, null);
  let r = await s.call("PUT", `/api/v1/timers/${id}/message`, {
    body: { text: "Wrap up", color: "yellow", flash: 3 },
    key: token,
  });
  assert.equal(r.status, 200);
  assert.deepEqual(r.body.message, {
    text: "Wrap up",
    color: "yellow",
    flash: 3,
    blackout: false,
    set_at: new Date(s.clock.now()).toISOString(),
  });
  r = await s.call("PUT", `/api/v1/timers/${id}/message`, { body: { blackout: true } });
  assert.equal(r.status, 200);
  assert.equal(r.body.message.blackout, true);
  assert.equal(r.body.message.color, "white");
  assert.equal(r.body.state, "idle");
  const bad: [unknown, string][] = [
    [{}, "text"],
    [{ text: "x".repeat(201) }, "text"],
    [{ text: "a\u0000b" }, "text"],
    [{ text: "hi", color: "blue" }, "color"],
    [{ text: "hi", flash: 11 }, "flash"],
    [{ text: "hi", blackout: "yes" }, "blackout"],
    [{ text: "hi", size: 3 }, "size"],
  ];
  for (const [body, field] of bad) {
    const b = await s.call("PUT", `/api/v1/timers/${id}/message`, { body });
    assert.equal(b.status, 422, JSON.stringify(body));
    assert.equal(b.body.error.field, field, JSON.stringify(body));
  }
  r = await s.call("DELETE", `/api/v1/timers/${id}/message`, { key: token });
  assert.equal(r.status, 200);
  assert.equal(r.body.message, null);
  const other = await s.create({ type: "countdown", duration: 60 });
  r = await s.call("PUT", `/api/v1/timers/${other.timer_id}/message`, { body: { text: "x" }, key: token });
  assert.equal(r.status, 401);
  await s.app.scheduler.settled();
  assert.equal(rx.received.length, 0, "a message sends no webhook");
  await close();
});

Deno.test("without show fields every answer keeps today's values: normal zone, no overtime, nothing added", async () => {
  const { s, rx, close } = await world();
  const t = await s.create({ type: "countdown", duration: 5, webhook_url: rx.url });
  await s.act(t.timer_id, "start");
  await until(s, s.clock.now() + 5_000);
  await rx.waitFor(2);
  const done = last(rx, "timer.completed");
  assert.deepEqual(Object.keys(done.data).sort(), [
    "actual_duration",
    "completed_at",
    "duration",
    "started_at",
    "state",
  ]);
  const read = (await s.call("GET", `/api/v1/timers/${t.timer_id}`)).body;
  assert.equal(read.state, "completed");
  assert.equal(read.zone, "normal");
  assert.equal(read.overtime, false);
  assert.equal(read.overtime_seconds, 0);
  assert.equal(read.added_seconds, 0);
  await close();
});

Deno.test("a crossing due while no process ran is sent once by the next one, from the due index", async () => {
  const { s, rx, close } = await world();
  const t = await s.create({ type: "countdown", duration: 60, warn_at: 30, webhook_url: rx.url });
  const start = s.clock.now();
  await s.act(t.timer_id, "start");
  await s.app.scheduler.settled();
  await s.app.scheduler.stop();
  // The process is gone past the warning's instant; another one starts on the same KV.
  s.clock.t = start + 45_000;
  const next = new Scheduler({ store: s.store, config: s.config, now: s.clock.now });
  await next.sweep(true);
  await next.settled();
  await rx.waitFor(2);
  const warning = last(rx, "timer.warning");
  assert.equal(warning.timestamp, new Date(start + 30_000).toISOString(), "stamped with its own instant");
  await next.sweep(true);
  await next.settled();
  assert.equal(events(rx).filter((e) => e === "timer.warning").length, 1);
  await next.stop();
  await close();
});

Deno.test("overtime cannot be turned off while the timer counts past zero (409); it can before and after", async () => {
  const { s, close } = await world();
  const t = await s.create({ type: "countdown", duration: 10, overtime: true });
  const id = t.timer_id;
  await s.act(id, "start");
  await until(s, s.clock.now() + 12_000);
  let r = await s.call("PATCH", `/api/v1/timers/${id}`, { body: { overtime: false } });
  assert.equal(r.status, 409);
  assert.equal(r.body.error.field, "overtime");
  await s.act(id, "reset");
  r = await s.call("PATCH", `/api/v1/timers/${id}`, { body: { overtime: false } });
  assert.equal(r.status, 200);
  assert.equal(r.body.overtime, false);
  const iv = await s.create({ type: "interval", work: 10, rest: 5 });
  r = await s.call("PATCH", `/api/v1/timers/${iv.timer_id}`, { body: { overtime: true } });
  assert.equal(r.status, 422);
  assert.equal(r.body.error.field, "overtime");
  await close();
});

Deno.test("a refused message colour or a zero adjust says what is allowed, naming the field", async () => {
  const s = await setup();
  const t = await s.create({ type: "countdown", duration: 60 });
  const color = await s.call("PUT", `/api/v1/timers/${t.timer_id}/message`, { body: { text: "hi", color: "blue" } });
  assert.equal(color.status, 422);
  assert.deepEqual(color.body.error, {
    code: 422,
    message: 'color must be one of white, green, yellow, red, got "blue"',
    field: "color",
  });
  assert.equal((await s.act(t.timer_id, "start")).status, 200);
  const zero = await s.call("PATCH", `/api/v1/timers/${t.timer_id}/state`, { body: { action: "adjust", seconds: 0 } });
  assert.equal(zero.status, 422);
  assert.deepEqual(zero.body.error, {
    code: 422,
    message: "seconds must be a non-zero integer from -86400 to 86400, got 0",
    field: "seconds",
  });
  await s.close();
});
