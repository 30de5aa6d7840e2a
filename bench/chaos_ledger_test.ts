import assert from "node:assert/strict";
import { type Arrival, broken, expectedOf, ledger, type TimerLog } from "./chaos_ledger.ts";
import { brokenLive, judgeLive, LiveProbe, type LiveRound, type LiveSample } from "./chaos_live.ts";

const T0 = Date.parse("2026-11-27T04:00:00Z");
const iso = (ms: number) => new Date(ms).toISOString();
const opts = (now: number) => ({ inflightMs: 1000, killSlackMs: 2000, now });

function arrival(timer: string, id: string, event: string, at: number, timestamp = at): Arrival {
  return { at, id, timer_id: timer, event, timestamp: iso(timestamp) };
}

/** A countdown of 3 s created at T0 and started at T0+1 s (answered 50 ms later). */
function countdown(id = "tmr_a"): TimerLog {
  return {
    id,
    type: "countdown",
    steps: [
      { kind: "create", sent: T0, answered: T0 + 20, status: 201, snap: { state: "idle", remaining_seconds: 3 } },
      {
        kind: "action",
        action: "start",
        sent: T0 + 1000,
        answered: T0 + 1050,
        status: 200,
        snap: { state: "running", remaining_seconds: 3 },
      },
    ],
  };
}

Deno.test("a started countdown implies its start and, once its zero has passed, its completion", () => {
  const t = countdown();
  const before = expectedOf(t, T0 + 3500);
  assert.deepEqual(before.bounds.get("timer.completed"), { lo: 0, hi: 1 });
  assert.equal(before.ambiguous, 1, "the zero's window (T0+3 s … T0+4.05 s) is not over at T0+3.5 s");
  const after = expectedOf(t, T0 + 10_000);
  assert.deepEqual(after.bounds.get("timer.started"), { lo: 1, hi: 1 });
  assert.deepEqual(after.bounds.get("timer.completed"), { lo: 1, hi: 1 });
  assert.equal(after.ambiguous, 0);
});

Deno.test("a missing completion is lost; its arrival makes the ledger clean", () => {
  const t = countdown();
  const started = arrival(t.id, "evt_1", "timer.started", T0 + 1040);
  const lost = ledger([t], [started], [], opts(T0 + 10_000));
  assert.equal(lost.lost, 1);
  assert.deepEqual(broken(lost), ["1 events lost"]);
  const done = ledger(
    [t],
    [started, arrival(t.id, "evt_2", "timer.completed", T0 + 4100, T0 + 4000)],
    [],
    opts(T0 + 10_000),
  );
  assert.equal(done.lost, 0);
  assert.equal(done.more_than_implied, 0);
  assert.deepEqual(broken(done), []);
});

Deno.test("a pause answered before the zero withdraws the completion; a 409 to pause proves it happened", () => {
  const paused = countdown();
  paused.steps.push({
    kind: "action",
    action: "pause",
    sent: T0 + 3500,
    answered: T0 + 3600,
    status: 200,
    snap: { state: "paused", remaining_seconds: 1 },
  });
  const p = expectedOf(paused, T0 + 60_000);
  assert.equal(p.bounds.get("timer.completed"), undefined);
  assert.deepEqual(p.bounds.get("timer.paused"), { lo: 1, hi: 1 });
  assert.equal(p.ambiguous, 0, "the pause's 200 resolves the window it overlaps");

  const refused = countdown();
  refused.steps.push({ kind: "action", action: "pause", sent: T0 + 3900, answered: T0 + 4100, status: 409 });
  assert.deepEqual(expectedOf(refused, T0 + 60_000).bounds.get("timer.completed"), { lo: 1, hi: 1 });
});

Deno.test("after an unanswered action only what was due before it is expected, and nothing is too much", () => {
  const t = countdown();
  t.steps.push({ kind: "action", action: "pause", sent: T0 + 2000, answered: T0 + 2100, status: null });
  const e = expectedOf(t, T0 + 60_000);
  assert.equal(e.open, true);
  assert.equal(e.bounds.get("timer.completed"), undefined);
  const l = ledger([t], [arrival(t.id, "x", "timer.paused", T0 + 2050)], [], opts(T0 + 60_000));
  assert.equal(l.more_than_implied, 0);
  assert.equal(l.timers.open, 1);
});

Deno.test("an interval's round ends and completion follow from its answer", () => {
  const t: TimerLog = {
    id: "tmr_i",
    type: "interval",
    steps: [{
      kind: "create",
      sent: T0,
      answered: T0 + 10,
      status: 201,
      snap: { state: "idle", remaining_seconds: 9, work: 2, rest: 1, rounds: 3 },
    }, {
      kind: "action",
      action: "start",
      sent: T0 + 100,
      answered: T0 + 120,
      status: 200,
      snap: {
        state: "running",
        remaining_seconds: 9,
        work: 2,
        rest: 1,
        rounds: 3,
        interval: { round: 1, phase: "work", phase_remaining_seconds: 2 },
      },
    }],
  };
  const e = expectedOf(t, T0 + 60_000);
  assert.deepEqual(e.bounds.get("interval.round_end"), { lo: 3, hi: 3 });
  assert.deepEqual(e.bounds.get("interval.completed"), { lo: 1, hi: 1 });
});

Deno.test("an event of a deleted timer counts against the promise only past the in-flight allowance", () => {
  const t = countdown();
  t.deletedAt = T0 + 2000;
  const l = ledger(
    [t],
    [
      arrival(t.id, "a", "timer.started", T0 + 1500),
      arrival(t.id, "b", "timer.adjusted", T0 + 2600),
      arrival(t.id, "c", "timer.completed", T0 + 4000),
    ],
    [],
    opts(T0 + 60_000),
  );
  assert.equal(l.in_flight_at_delete, 1);
  assert.equal(l.in_flight_max_ms, 600);
  assert.equal(l.after_delete, 1);
  assert.equal(l.lost, 0, "a deleted timer's events are not owed");
});

Deno.test("a duplicate is explained only by a kill between its arrivals; out-of-order arrivals are counted", () => {
  const t = countdown();
  const arrivals = [
    arrival(t.id, "s", "timer.started", T0 + 1040),
    arrival(t.id, "c", "timer.completed", T0 + 4050, T0 + 4000),
    arrival(t.id, "c", "timer.completed", T0 + 30_000, T0 + 4000),
    arrival(t.id, "s", "timer.started", T0 + 31_000, T0 + 1040),
  ];
  const none = ledger([t], arrivals, [], opts(T0 + 60_000));
  assert.equal(none.duplicates, 2);
  assert.equal(none.duplicates_unexplained, 2);
  assert.equal(none.duplicate_ratio, 1);
  const killed = ledger([t], arrivals, [{ instance: 0, pid: 1, at: T0 + 5000 }], opts(T0 + 60_000));
  assert.equal(killed.duplicates_explained, 2);
  assert.deepEqual(broken(killed), []);

  const reordered = ledger(
    [t],
    [
      arrival(t.id, "c", "timer.completed", T0 + 4050, T0 + 4000),
      arrival(t.id, "s", "timer.started", T0 + 4060, T0 + 1040),
    ],
    [],
    opts(T0 + 60_000),
  );
  assert.equal(reordered.out_of_order, 1);
  assert.deepEqual(broken(reordered), ["1 events arrived out of order"], "order is a promise");
  assert.deepEqual(broken(reordered, { order: false }), [], "reported only, on request");
});

// ── the cross-instance live-page check (chaos_live.ts) ──────────────────────────────────────

function sample(over: Partial<LiveSample> = {}): LiveSample {
  return { a: 0, b: 1, action: "start", sent: T0, answered: T0 + 30, seen: T0 + 200, ...over };
}

Deno.test("live: the latency runs from A's answer to the event read on B; past 1 s or missing breaks the promise", () => {
  const rounds: LiveRound[] = [{
    b: 1,
    opened: T0 - 500,
    failedAt: null,
    samples: [
      sample(),
      sample({ action: "pause", sent: T0 + 1000, answered: T0 + 1030, seen: T0 + 2030 }),
      sample({ action: "resume", sent: T0 + 3000, answered: T0 + 3040, seen: T0 + 3020 }),
    ],
  }];
  const ok = judgeLive(rounds, 0, [], []);
  assert.equal(ok.judged, 3);
  assert.equal(ok.within_1s, 3, "exactly 1 000 ms is within; seen before A's answer arrived (−20 ms) too");
  assert.deepEqual(ok.latency_ms, { p50: 170, p90: 1000, p99: 1000, max: 1000, min: -20 });
  assert.deepEqual(brokenLive(ok), []);

  rounds[0].samples.push(
    sample({ action: "stop", sent: T0 + 5000, answered: T0 + 5030, seen: T0 + 6031 }),
    sample({ action: "reset", sent: T0 + 7000, answered: T0 + 7030, seen: null, ended: T0 + 17_030, why: "timeout" }),
  );
  const bad = judgeLive(rounds, 0, [], []);
  assert.equal(bad.within_1s, 3);
  assert.equal(bad.missed, 1);
  assert.equal(bad.share_within_1s, 3 / 5);
  assert.deepEqual(bad.late_examples.map((e) => e.latency_ms), [1001, null]);
  assert.deepEqual(brokenLive(bad), ["2 of 5 live-page changes not seen on another instance within 1 s"]);
});

Deno.test("live: a kill of A or B or the KV down during a sample's wait excuses it; any other kill does not", () => {
  const missed = sample({ seen: null, ended: T0 + 10_030, why: "stream ended" });
  const rounds: LiveRound[] = [{ b: 1, opened: T0 - 500, failedAt: null, samples: [missed] }];
  const killOf = (instance: number, at: number) => ({ instance, pid: 1, at });
  assert.equal(judgeLive(rounds, 0, [killOf(1, T0 + 400)], []).excused, 1, "B killed while waiting");
  assert.equal(judgeLive(rounds, 0, [killOf(1, T0 - 100)], []).excused, 1, "B killed after its stream opened");
  assert.equal(judgeLive(rounds, 0, [killOf(1, T0 - 600)], []).missed, 1, "B killed before the round: no excuse");
  assert.equal(judgeLive(rounds, 0, [killOf(0, T0 - 100)], []).missed, 1, "A killed before the send: no excuse");
  assert.equal(judgeLive(rounds, 0, [killOf(0, T0 + 10)], []).excused, 1, "A killed while answering");
  assert.equal(judgeLive(rounds, 0, [killOf(2, T0 + 400)], []).missed, 1, "another instance's kill excuses nothing");
  assert.equal(judgeLive(rounds, 0, [killOf(1, T0 + 20_000)], []).missed, 1, "a kill after the wait excuses nothing");
  assert.equal(judgeLive(rounds, 0, [], [{ from: T0 - 2000, to: T0 + 5 }]).excused, 1, "the KV down at the send");
  const after = judgeLive(rounds, 0, [], [{ from: T0 - 5000, to: T0 - 1 }]);
  assert.equal(after.missed, 1, "an outage over before the send excuses nothing");
  assert.deepEqual(brokenLive(after), ["1 of 1 live-page changes not seen on another instance within 1 s"]);

  const failed: LiveRound[] = [{ b: 1, opened: T0, failedAt: T0 + 10_000, samples: [] }, ...rounds];
  assert.equal(judgeLive(failed, 0, [killOf(1, T0 + 5)], []).streams_failed_unexcused, 0, "B killed while opening");
  assert.equal(judgeLive(failed, 0, [killOf(0, T0 + 5)], []).streams_failed_unexcused, 1, "A plays no part in it");
  const unexcused = judgeLive(failed, 0, [], []);
  assert.equal(unexcused.streams_failed_unexcused, 1);
  assert.ok(brokenLive(unexcused).includes("1 live streams gave no first snapshot"));
  assert.deepEqual(brokenLive(judgeLive([], 3, [], [])), ["the live check judged no sample"]);
});

/**
 * Two stub "instances" sharing timers: a change through one is pushed to the live streams open on
 * the other after `lagMs`, or (deaf) only to streams on the instance that made it, as on a local file.
 */
function stubInstances(o: { lagMs: number; deaf?: boolean }) {
  const states = new Map<string, string>();
  const streams = new Set<{ instance: number; id: string; send: (state: string) => void }>();
  let n = 0;
  const serve = (instance: number) =>
    Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
      const path = new URL(req.url).pathname;
      if (req.method === "POST" && path === "/api/v1/timers") {
        const id = `tmr_${++n}`;
        states.set(id, "idle");
        return Response.json({ timer_id: id, state: "idle" }, { status: 201 });
      }
      const patch = /^\/api\/v1\/timers\/(.+)\/state$/.exec(path);
      if (req.method === "PATCH" && patch) {
        const next = { start: "running", pause: "paused", resume: "running", stop: "stopped", reset: "idle" }[
          (await req.json()).action as string
        ]!;
        states.set(patch[1], next);
        setTimeout(() => {
          for (const s of streams) if (s.id === patch[1] && (!o.deaf || s.instance === instance)) s.send(next);
        }, o.lagMs);
        return Response.json({ timer_id: patch[1], state: next });
      }
      const id = /^\/live\/(.+)$/.exec(path)?.[1];
      if (!id) return new Response("no", { status: 404 });
      const enc = new TextEncoder();
      let me: { instance: number; id: string; send: (state: string) => void };
      return new Response(
        new ReadableStream<Uint8Array>({
          start(ctl) {
            me = {
              instance,
              id,
              send: (state) =>
                ctl.enqueue(enc.encode(`event: timer\ndata: ${JSON.stringify({ timer: { state } })}\n\n`)),
            };
            streams.add(me);
            me.send(states.get(id)!);
          },
          cancel: () => void streams.delete(me),
        }),
        { headers: { "content-type": "text/event-stream" } },
      );
    });
  const servers = [serve(0), serve(1)];
  return {
    live: () => servers.map((s, instance) => ({ instance, base: `http://127.0.0.1:${s.addr.port}` })),
    close: () => Promise.all(servers.map((s) => s.shutdown())),
  };
}

Deno.test("live: the probe holds B's stream, changes the timer through A and times what B shows", async () => {
  for (const [lagMs, deaf] of [[30, false], [30, true]] as const) {
    const stub = stubInstances({ lagMs, deaf });
    const probe = new LiveProbe({ instances: stub, key: "k", timeoutMs: 1500, gapMs: [0, 10] });
    try {
      await probe.run(() => probe.rounds.length >= 1);
    } finally {
      probe.close();
      await stub.close();
    }
    const [round] = probe.rounds;
    const l = judgeLive(probe.rounds, probe.unanswered, [], []);
    if (!deaf) {
      assert.deepEqual(round.samples.map((s) => s.action), ["start", "pause", "resume", "stop", "reset"]);
      assert.ok(round.samples.every((s) => s.a !== s.b), "every change goes through the other instance");
      assert.equal(l.within_1s, 5);
      assert.ok(l.latency_ms!.min >= 0 && l.latency_ms!.max < 1000, JSON.stringify(l.latency_ms));
      assert.deepEqual(brokenLive(l), []);
    } else {
      // A page that sees only its own instance's changes: the first change is missed and the round ends.
      assert.equal(round.samples.length, 1);
      assert.equal(round.samples[0].why, "timeout");
      assert.equal(l.missed, 1);
      assert.equal(brokenLive(l).length, 1);
    }
  }
});
