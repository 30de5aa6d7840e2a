/**
 * A timer's lifetime against time added to it: the timer lives past the end the adjusts give it,
 * so it completes and sends its completion webhook instead of expiring first (TIMER_TTL_SECONDS).
 */
import assert from "node:assert/strict";
import { advance, clocked, receiver } from "./helpers.ts";

const DAY = 86400_000;
const WEEK = 7 * DAY;

async function world() {
  const s = await clocked();
  const rx = receiver();
  const adjust = async (id: string, times: number) => {
    let r;
    for (let i = 0; i < times; i++) {
      r = await s.call("POST", `/api/v1/timers/${id}/actions/adjust?seconds=86400`);
      assert.equal(r.status, 200, JSON.stringify(r.body));
    }
    return r!.body;
  };
  const close = async () => {
    await s.close();
    await rx.close();
  };
  return { s, rx, adjust, close };
}

Deno.test("a running countdown given 90 days by adjusts outlives the 30-day lifetime and completes with its webhook", async () => {
  const { s, rx, adjust, close } = await world();
  try {
    const t = await s.create({ type: "countdown", duration: 600, webhook_url: rx.url });
    await s.act(t.timer_id, "start");
    const adjusted = await adjust(t.timer_id, 90);
    const end = s.clock.now() + adjusted.remaining_seconds * 1000;
    assert.equal(Date.parse(adjusted.expires_at), end + WEEK);
    await advance(s, 31 * DAY);
    assert.equal((await s.call("GET", `/api/v1/timers/${t.timer_id}`)).body.state, "running");
    await advance(s, end - s.clock.now());
    await rx.waitFor(92); // started, 90 adjusted, completed
    assert.equal(rx.received.at(-1)!.json.event, "timer.completed");
    assert.equal((await s.call("GET", `/api/v1/timers/${t.timer_id}`)).body.state, "completed");
  } finally {
    await close();
  }
});

Deno.test("a paused countdown given 90 days by adjusts lives its remaining time + 7 days, then completes once resumed", async () => {
  const { s, rx, adjust, close } = await world();
  try {
    const t = await s.create({ type: "countdown", duration: 600, webhook_url: rx.url });
    await s.act(t.timer_id, "start");
    await s.act(t.timer_id, "pause");
    const adjusted = await adjust(t.timer_id, 90);
    assert.equal(adjusted.state, "paused");
    const remaining = adjusted.remaining_seconds * 1000;
    assert.equal(Date.parse(adjusted.expires_at), s.clock.now() + remaining + WEEK);
    // Past the 30-day lifetime it is still there, paused, with all its time.
    await advance(s, 60 * DAY);
    const kept = await s.call("GET", `/api/v1/timers/${t.timer_id}`);
    assert.equal(kept.status, 200, JSON.stringify(kept.body));
    assert.equal(kept.body.remaining_seconds * 1000, remaining);
    // Resumed, its lifetime follows its deadline again; it completes and says so.
    const resumed = await s.act(t.timer_id, "resume");
    assert.equal(Date.parse(resumed.body.expires_at), s.clock.now() + remaining + WEEK);
    await advance(s, remaining);
    await rx.waitFor(94); // started, paused, 90 adjusted, resumed, completed
    assert.equal(rx.received.at(-1)!.json.event, "timer.completed");
    // Left paused, it does expire: its remaining time + 7 days after its last change.
    const idle = await s.create({ type: "countdown", duration: 600 });
    await s.act(idle.timer_id, "start");
    const paused = await s.act(idle.timer_id, "pause");
    await advance(s, Date.parse(paused.body.expires_at) - s.clock.now() + 1000);
    assert.equal((await s.call("GET", `/api/v1/timers/${idle.timer_id}`)).status, 404);
  } finally {
    await close();
  }
});
