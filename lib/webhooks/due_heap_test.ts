import assert from "node:assert/strict";
import { DueHeap } from "./due_heap.ts";
import { MAX_WAIT_MS } from "../wait.ts";

Deno.test("the heap fires every instant once, earliest first, through one wake-up", async () => {
  const fired: number[] = [];
  const { promise, resolve } = Promise.withResolvers<void>();
  const t0 = Date.now();
  const heap = new DueHeap(Date.now, (due) => {
    fired.push(...due);
    if (fired.length === 3) resolve();
  });
  heap.add(t0 + 60);
  heap.add(t0 + 30);
  heap.add(t0 + 60); // the same instant armed twice fires once
  heap.add(t0 - 5);
  assert.equal(heap.size, 4);
  await promise;
  await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual(fired, [t0 - 5, t0 + 30, t0 + 60]);
  assert.equal(heap.size, 0);
  heap.stop();
});

Deno.test("a deadline 40 days away waits in chunks below 2^31 ms instead of firing at once", async () => {
  let now = 0;
  const fired: number[] = [];
  const heap = new DueHeap(() => now, (due) => fired.push(...due));
  const far = 40 * 86400_000;
  heap.add(far);
  await new Promise((r) => setTimeout(r, 30));
  assert.deepEqual(fired, [], "nothing fired early");
  assert.ok(MAX_WAIT_MS < 2 ** 31);
  now = far;
  heap.add(now - 1); // re-arms for an instant already past
  await new Promise((r) => setTimeout(r, 10));
  assert.deepEqual(fired, [far - 1, far]);
  heap.stop();
});

// What 100 000 deadlines cost in memory is the bench's "100 000 running" row: the heap of a process
// running other test files in parallel is no measure of it.
Deno.test("100 000 deadlines added in any order are held and come out earliest first", () => {
  let now = 0;
  const fired: number[] = [];
  const heap = new DueHeap(() => now, (due) => fired.push(...due));
  const t = 3600_000;
  for (let i = 0; i < 100_000; i++) heap.add(t + ((i * 7919) % 100_000) * 13);
  assert.equal(heap.size, 100_000);
  now = t + 100_000 * 13;
  heap.fireDue();
  assert.equal(fired.length, 100_000);
  assert.ok(fired.every((at, n) => n === 0 || fired[n - 1] < at), "earliest first, each once");
  heap.stop();
});

Deno.test("fireDue fires at once what the clock has reached, and nothing later", () => {
  let now = 1000;
  const fired: number[] = [];
  const heap = new DueHeap(() => now, (due) => fired.push(...due));
  heap.add(5000);
  heap.add(2000);
  now = 3000; // a clock that jumped: the native wake-up still waits for its old delay
  heap.fireDue();
  assert.deepEqual(fired, [2000]);
  heap.fireDue();
  assert.deepEqual(fired, [2000], "nothing due twice");
  assert.equal(heap.size, 1);
  heap.stop();
  now = 9000;
  heap.fireDue();
  assert.deepEqual(fired, [2000], "a stopped heap fires nothing");
});

Deno.test("a load holds what the index has due and every instant added while it read, and drops the rest", async () => {
  let now = 0;
  const fired: number[] = [];
  const reloads: number[][] = [];
  const index = { pages: [[300], [400]], fail: false };
  const heap = new DueHeap(() => now, (due) => fired.push(...due), {
    min: 4,
    read: async function* () {
      for (const page of index.pages) {
        heap.add(250); // armed while the index is being read
        if (index.fail) throw new Error("unreadable");
        yield page;
      }
    },
    reloaded: (held, armed, e) => reloads.push([held, armed, e ? 1 : 0]),
  });
  for (const at of [100, 200, 300, 400]) heap.add(at);
  heap.add(500); // past the minimum: it loads again from the index (100, 200 and 500 moved away)
  await heap.loading;
  assert.deepEqual(reloads, [[5, 4, 0]]);
  assert.equal(heap.size, 4, "300 and 400 from the index, 250 twice");
  now = 1000;
  heap.fireDue();
  assert.deepEqual(fired, [250, 300, 400]);
  // An index that cannot be read drops nothing.
  index.fail = true;
  for (let i = 0; i < 9; i++) heap.add(2000 + i);
  await heap.loading;
  assert.equal(reloads.at(-1)![2], 1);
  assert.equal(heap.size, 10);
  heap.stop();
});

Deno.test("two loads at once run one after the other, each keeping what was added while it read", async () => {
  const heap = new DueHeap(() => 0, () => {});
  const gate = Promise.withResolvers<void>();
  async function* slow() {
    await gate.promise;
    yield [100];
  }
  async function* fast() {
    yield [200];
  }
  const first = heap.load(slow());
  const second = heap.load(fast());
  heap.add(300); // added while the first reads
  gate.resolve();
  assert.deepEqual(await Promise.all([first, second]), [1, 1]);
  await heap.loading;
  assert.equal(heap.loading, null);
  assert.equal(
    heap.size,
    2,
    "the second load's index (200) and what was added during the first (300) are kept once each",
  );
  heap.stop();
});
