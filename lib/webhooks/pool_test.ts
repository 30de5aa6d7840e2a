import assert from "node:assert/strict";
import { WorkerPool } from "./pool.ts";

/** A job that records how many ran at once and ends when told. */
function gate() {
  let now = 0;
  let max = 0;
  const open: (() => void)[] = [];
  const job = () => {
    now++;
    max = Math.max(max, now);
    const { promise, resolve } = Promise.withResolvers<void>();
    open.push(resolve);
    return promise.finally(() => now--);
  };
  return { job, running: () => now, max: () => max, release: () => open.splice(0).forEach((r) => r()) };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

Deno.test("a pool runs at most its limit at once, and starts waiting jobs when the limit rises", async () => {
  const pool = new WorkerPool(8);
  pool.setLimit(2);
  const g = gate();
  for (let i = 0; i < 6; i++) void pool.submit(`k${i}`, g.job);
  await tick();
  assert.equal(g.running(), 2);
  pool.setLimit(5);
  await tick();
  assert.equal(g.running(), 5, "three waiting jobs start at once");
  pool.setLimit(100);
  assert.equal(pool.limit, 8, "never above its concurrency");
  await tick();
  assert.equal(g.running(), 6);
  g.release();
  await pool.idle();
  assert.equal(g.max(), 6);
  assert.equal(pool.running, 0);
});

Deno.test("a lowered limit lets running jobs finish and starts no new one until below it", async () => {
  const pool = new WorkerPool(4);
  const g = gate();
  for (let i = 0; i < 6; i++) void pool.submit(`k${i}`, g.job);
  await tick();
  assert.equal(g.running(), 4);
  pool.setLimit(1);
  g.release();
  await tick();
  assert.equal(g.running(), 1);
  g.release();
  await tick();
  assert.equal(g.running(), 1);
  g.release();
  await pool.idle();
});

Deno.test("jobs of one key run one after another, in order", async () => {
  const pool = new WorkerPool(4);
  const order: number[] = [];
  await Promise.all([1, 2, 3].map((n) =>
    pool.submit("same", async () => {
      await new Promise((r) => setTimeout(r, 4 - n));
      order.push(n);
    })
  ));
  assert.deepEqual(order, [1, 2, 3]);
});

Deno.test("a group whose jobs hang holds at most three quarters of the slots; another group starts at once", async () => {
  const pool = new WorkerPool(8);
  const hung = gate();
  for (let i = 0; i < 20; i++) void pool.submit(`slow${i}`, hung.job, "acct_slow");
  await tick();
  assert.equal(hung.running(), 6, "three quarters of 8");
  const fast: string[] = [];
  await Promise.all(
    [1, 2, 3].map((n) => pool.submit(`fast${n}`, () => Promise.resolve(void fast.push(`f${n}`)), "acct_fast")),
  );
  assert.deepEqual(fast, ["f1", "f2", "f3"], "ran beside the hung group, not after it");
  assert.equal(hung.running(), 6, "the hung group took no more");
  hung.release();
  await tick();
  assert.equal(hung.running(), 6);
  for (let i = 0; i < 4; i++) {
    hung.release();
    await tick();
  }
  await pool.idle();
  assert.equal(hung.max(), 6);
});

Deno.test("a freed slot goes to the waiting group with the fewest running", async () => {
  const pool = new WorkerPool(4);
  const a = gate();
  const b = gate();
  for (let i = 0; i < 3; i++) void pool.submit(`a${i}`, a.job, "A");
  void pool.submit("b0", b.job, "B");
  await tick();
  assert.deepEqual([a.running(), b.running()], [3, 1]);
  for (let i = 3; i < 6; i++) void pool.submit(`a${i}`, a.job, "A");
  for (let i = 1; i < 4; i++) void pool.submit(`b${i}`, b.job, "B");
  a.release(); // three slots free, one by one: each to whichever group has fewer running then
  await tick();
  assert.deepEqual([a.running(), b.running()], [2, 2]);
  a.release();
  b.release();
  await tick();
  a.release();
  b.release();
  await pool.idle();
});

Deno.test("thousands of jobs of one group waiting for one slot start in the order they came", async () => {
  const pool = new WorkerPool(1);
  const started: number[] = [];
  for (let i = 0; i < 3000; i++) void pool.submit(`k${i}`, () => (started.push(i), Promise.resolve()), "acct");
  await pool.idle();
  assert.deepEqual(started, Array.from({ length: 3000 }, (_, i) => i));
  assert.equal(pool.running, 0);
});
