import assert from "node:assert/strict";
import { Lease, LEASE_GRACE_MS, STOPPED } from "./lease.ts";

/** A lease on a monotonic clock the test moves. */
function leased(busyMs = 15_000) {
  const clock = { t: 1_000 };
  const lease = new Lease({ timeoutMs: 10_000, busyMs, mono: () => clock.t, instance: "me" });
  return { lease, clock };
}

Deno.test("a claim holds the attempt's timeout plus the grace and names its instance", () => {
  const { lease } = leased();
  assert.equal(lease.leaseMs, 10_000 + LEASE_GRACE_MS);
  assert.deepEqual(lease.claim(5_000), { until: 5_000 + lease.leaseMs, by: "me" });
  // Silent for longer than a live process can be: KV's busy-retry budget and a whole lease.
  assert.equal(lease.deadAfterMs, 15_000 + lease.leaseMs);
});

Deno.test("the heartbeat is a counter that changes with every beat", () => {
  const { lease } = leased();
  const beats = [lease.nextBeat(), lease.nextBeat(), lease.nextBeat()];
  assert.equal(new Set(beats).size, 3);
});

Deno.test("an instance seen for the first time is never gone, whatever its heartbeat says", () => {
  const { lease } = leased();
  // An epoch-ms heartbeat days old, a counter, or none at all: its silence is timed from now.
  assert.deepEqual(
    lease.observe(new Map<string, unknown>([["a", Date.now() - 5_000], ["b", 3], ["c", null]])),
    new Set(),
  );
});

Deno.test("an instance is gone only once its counter stood still longer than busy budget + lease, on the reader's clock", () => {
  const { lease, clock } = leased();
  lease.observe(new Map([["other", 7]]));
  clock.t += lease.deadAfterMs;
  assert.deepEqual(lease.observe(new Map([["other", 7]])), new Set(), "exactly deadAfterMs is not longer");
  clock.t += 1;
  assert.deepEqual(lease.observe(new Map([["other", 7]])), new Set(["other"]));
});

Deno.test("a counter that changed starts the silence over: a live instance that stalled is not taken for gone", () => {
  const { lease, clock } = leased();
  lease.observe(new Map([["other", 7]]));
  clock.t += lease.deadAfterMs - 1;
  assert.deepEqual(lease.observe(new Map([["other", 8]])), new Set());
  clock.t += lease.deadAfterMs - 1;
  assert.deepEqual(lease.observe(new Map([["other", 8]])), new Set());
  clock.t += 2;
  assert.deepEqual(lease.observe(new Map([["other", 8]])), new Set(["other"]));
});

Deno.test("this instance is never gone to itself", () => {
  const { lease, clock } = leased();
  lease.observe(new Map([["me", 1]]));
  clock.t += 10 * lease.deadAfterMs;
  assert.deepEqual(lease.observe(new Map([["me", 1]])), new Set());
});

Deno.test("an instance that stopped cleanly is gone at once", () => {
  const { lease } = leased();
  assert.deepEqual(lease.observe(new Map([["other", STOPPED]])), new Set(["other"]));
});

Deno.test("an instance newly taken for gone is 'recently gone' for the given time, once", () => {
  const { lease, clock } = leased();
  assert.equal(lease.recentlyGone(13_000), false);
  lease.observe(new Map([["other", 7]]));
  assert.equal(lease.recentlyGone(13_000), false, "silent, not yet gone");
  clock.t += lease.deadAfterMs + 1;
  lease.observe(new Map([["other", 7]]));
  assert.equal(lease.recentlyGone(13_000), true);
  clock.t += 13_001;
  lease.observe(new Map([["other", 7]])); // still gone: not newly
  assert.equal(lease.recentlyGone(13_000), false);
  lease.observe(new Map([["stopped", STOPPED]]));
  assert.equal(lease.recentlyGone(13_000), true, "a clean stop is gone at once");
});
