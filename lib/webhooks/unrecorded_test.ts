import assert from "node:assert/strict";
import { MAX_OPEN, maxOpen, SLOW_ANSWER_MS, SLOW_FOR_MS, Unrecorded } from "./unrecorded.ts";

Deno.test("a crash's bound: 45 on a local file, 4× over KV Connect's 32 commits in flight", () => {
  assert.equal(maxOpen(2), MAX_OPEN);
  assert.equal(maxOpen(undefined), 45);
  assert.equal(maxOpen(32), 180);
});

/** Admits `n` attempts of `group`; returns those admitted so far (a flag each) after a turn. */
function admitMany(u: Unrecorded, group: string, n: number): { admitted: boolean[] } {
  const admitted = Array.from({ length: n }, () => false);
  admitted.forEach((_, i) => void u.admit(group).then(() => admitted[i] = true));
  return { admitted };
}

const turn = () => new Promise((r) => setTimeout(r, 0));

Deno.test("never more admitted than the limit; each release admits the next in turn", async () => {
  const u = new Unrecorded(4, 8);
  const a = admitMany(u, "a", 3);
  const b = admitMany(u, "b", 3);
  await turn();
  assert.equal(u.open, 4);
  assert.deepEqual(a.admitted, [true, true, true]);
  assert.deepEqual(b.admitted, [true, false, false]);
  u.release("a");
  await turn();
  assert.deepEqual(b.admitted, [true, true, false]);
  assert.equal(u.open, 4);
  u.release("b");
  u.release("b");
  await turn();
  assert.deepEqual(b.admitted, [true, true, true]);
  assert.equal(u.open, 3);
});

Deno.test("a group that holds its share leaves the others a quarter", async () => {
  const u = new Unrecorded(8, 8);
  assert.equal(u.share, 6);
  const hung = admitMany(u, "hung", 10);
  await turn();
  assert.equal(hung.admitted.filter(Boolean).length, 6, "a hanging receiver's account holds at most its share");
  const other = admitMany(u, "other", 3);
  await turn();
  assert.deepEqual(other.admitted, [true, true, false]);
  u.release("other");
  await turn();
  assert.deepEqual(other.admitted, [true, true, true], "the hung account's waiters do not overtake it");
  assert.equal(u.openOf("hung"), 6);
});

Deno.test("slow receivers raise the limit up to the most, never below the base", async () => {
  const u = new Unrecorded(4, 6);
  const a = admitMany(u, "a", 3);
  const b = admitMany(u, "b", 3);
  await turn();
  assert.equal(u.open, 4);
  u.setLimit(2_000);
  assert.equal(u.limit, 6);
  await turn();
  assert.equal(u.open, 6, "waiting attempts go once it rose");
  assert.deepEqual([...a.admitted, ...b.admitted], [true, true, true, true, true, true]);
  u.setLimit(1);
  assert.equal(u.limit, 4);
});

Deno.test("only a receiver slow for a second on end raises the limit to the pool's slots; a stalled event loop does not", () => {
  const u = new Unrecorded(45, 64);
  // A stall: 32 answers of 817 ms taken in together, then fast ones.
  for (let i = 0; i < 32; i++) u.observe(817, 1_000 + i * 0.1);
  assert.equal(u.limit, 45);
  u.observe(5, 1_010);
  u.observe(900, 2_500);
  u.observe(5, 2_600 + SLOW_FOR_MS);
  assert.equal(u.limit, 45, "a fast answer between slow ones starts over");
  // A receiver answering in 2 s: slow answers only, for SLOW_FOR_MS.
  for (let t = 10_000; t < 10_000 + SLOW_FOR_MS; t += 100) u.observe(2_000, t);
  assert.equal(u.limit, 45);
  u.observe(2_000, 10_000 + SLOW_FOR_MS);
  assert.equal(u.limit, 64);
  u.observe(SLOW_ANSWER_MS, 20_000);
  assert.equal(u.limit, 45, "back to the bound at its first fast answer");
});
