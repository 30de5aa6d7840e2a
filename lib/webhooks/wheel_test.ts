import assert from "node:assert/strict";
import { MAX_WAIT_MS, Wheel } from "./wheel.ts";

Deno.test("the wheel fires every item at its instant, earliest first, through one wake-up", async () => {
  const fired: { at: number; ids: string[] }[][] = [];
  const { promise, resolve } = Promise.withResolvers<void>();
  const t0 = Date.now();
  const wheel = new Wheel(Date.now, (due) => {
    fired.push(due);
    if (fired.flat().flatMap((d) => d.ids).length === 4) resolve();
  });
  wheel.add(t0 + 60, "b");
  wheel.add(t0 + 30, "a");
  wheel.add(t0 + 60, "c");
  wheel.add(t0 + 60, "c"); // the same item twice is armed once
  wheel.add(t0 - 5, "late");
  assert.equal(wheel.size, 4);
  await promise;
  const order = fired.flat().flatMap((d) => d.ids);
  assert.deepEqual(order, ["late", "a", "b", "c"]);
  assert.equal(wheel.size, 0);
  wheel.stop();
});

Deno.test("a deadline 40 days away waits in chunks below 2^31 ms instead of firing at once", async () => {
  let now = 0;
  const fired: string[] = [];
  const wheel = new Wheel(() => now, (due) => fired.push(...due.flatMap((d) => d.ids)));
  wheel.add(40 * 86400_000, "far");
  await new Promise((r) => setTimeout(r, 30));
  assert.deepEqual(fired, [], "nothing fired early");
  assert.ok(MAX_WAIT_MS < 2 ** 31);
  now = 40 * 86400_000;
  wheel.add(now - 1, "kick"); // re-arms for an instant already past
  await new Promise((r) => setTimeout(r, 10));
  assert.deepEqual(fired, ["kick", "far"]);
  wheel.stop();
});

Deno.test("holding 100 000 deadlines costs a few MB", () => {
  const wheel = new Wheel(Date.now, () => {});
  const ids = Array.from({ length: 100_000 }, (_, i) => `timer:tmr_${i.toString(36).padStart(16, "0")}`);
  const before = Deno.memoryUsage().heapUsed;
  const t = Date.now() + 3600_000;
  for (let i = 0; i < 100_000; i++) wheel.add(t + i * 13, ids[i]);
  const grew = Deno.memoryUsage().heapUsed - before;
  assert.equal(wheel.size, 100_000);
  assert.ok(grew < 24 * 1024 * 1024, `${(grew / 1048576).toFixed(1)} MiB`);
  wheel.stop();
});
