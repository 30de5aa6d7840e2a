/**
 * Shard leases: the hash is stable and even; instances on one KV divide the shards, a newcomer
 * gets its share, a clean stop hands over at once, a silent one only after the liveness bound.
 * Heartbeats and rounds are driven by hand on an injected monotonic clock.
 */
import assert from "node:assert/strict";
import { Store } from "../kv/store.ts";
import { Lease, STOPPED } from "./lease.ts";
import { newTimerId } from "../ids.ts";
import { key } from "../kv/keys.ts";
import { REMOTE_KV_LIMITS } from "../kv/batch.ts";
import { rangesOf, shardOf, SHARDS, Shards } from "./shards.ts";

/** An instance on `store`: its lease (silence timed on `mono`), its shards, a heartbeat to move by hand. */
function instance(store: Store, name: string, mono: { t: number }) {
  const lease = new Lease({ timeoutMs: 10_000, busyMs: 15_000, mono: () => mono.t, instance: name });
  const shards = new Shards({ store, lease, sharing: "shared" });
  return {
    lease,
    shards,
    beat: () => store.timers.beat(name, lease.nextBeat()),
    /** Beats, then one round. */
    round: async () => {
      await store.timers.beat(name, lease.nextBeat());
      return await shards.rebalance();
    },
  };
}

type Instance = ReturnType<typeof instance>;

/** Rounds of every instance, each beating first, until none changes (at most `max`). */
async function settle(all: Instance[], max = 10) {
  for (let i = 0; i < max; i++) {
    let changed = false;
    for (const x of all) {
      const r = await x.round();
      if (r.gained.length || r.lost.length) changed = true;
    }
    if (!changed && i > 1) return;
  }
}

/** Every shard held by exactly one of them, as KV says and as each believes. */
async function assertDivided(store: Store, all: Instance[]) {
  const leases = await store.shards.leases();
  assert.equal(leases.length, SHARDS);
  for (const x of all) {
    assert.deepEqual(
      x.shards.held,
      leases.filter((l) => l.by === x.lease.instance).map((l) => l.shard).sort((a, b) => a - b),
    );
  }
  const union = all.flatMap((x) => x.shards.held).sort((a, b) => a - b);
  assert.deepEqual(union, [...Array(SHARDS).keys()]);
}

async function kvStore() {
  const kv = await Deno.openKv(":memory:");
  return { kv, store: new Store(kv, { useQueue: false }) };
}

Deno.test("a due entry's shard is the id range of its timer, a delivery's that of its timer", () => {
  assert.equal(shardOf("tmr_01JDXYZ/evt_1"), shardOf("tmr_01JDXYZ"));
  // Pinned: a shard must not move between versions (entries already stored keep their instance).
  assert.deepEqual(
    ["a", "rdn_zzz", "tmr_01JDXYZ", "tmr_3t", "tmr_5p", "tmr_zz", "u"].map((r) => shardOf(r)),
    [0, 0, 0, 2, 3, 31, 31],
  );
  for (let i = 0; i < 100; i++) {
    const s = shardOf(crypto.randomUUID());
    assert.ok(Number.isInteger(s) && s >= 0 && s < SHARDS);
  }
});

Deno.test("shards are ranges: ids in order fall in shards in order, and a run of shards reads as one range", () => {
  const ids = Array.from({ length: 2000 }, () => newTimerId()).sort();
  const shards = ids.map((id) => shardOf(id));
  for (let i = 1; i < shards.length; i++) assert.ok(shards[i] >= shards[i - 1], "shards follow the ids' order");
  const held = [0, 1, 2, 9, 10, 31];
  const ranges = rangesOf(held);
  assert.equal(ranges.length, 3, "0–2, 9–10 and 31");
  const inRanges = (ref: string) => ranges.some((r) => r.start <= ref && (r.end === null || ref < r.end));
  for (const id of ids) {
    assert.equal(inRanges(id), held.includes(shardOf(id)), id);
    assert.equal(inRanges(`${id}/evt_1`), held.includes(shardOf(id)), `${id}'s delivery`);
  }
  assert.ok(inRanges("rdn_anything"), "rundowns are shard 0's");
  assert.deepEqual(rangesOf([...Array(SHARDS).keys()]), [{ start: "", end: null }]);
  // Cut into pieces to read side by side: still every id once, in as many ranges as asked.
  const pieces = rangesOf([...Array(SHARDS).keys()], SHARDS, 8);
  assert.equal(pieces.length, 8);
  for (const id of ids) assert.equal(pieces.filter((r) => r.start <= id && (r.end === null || id < r.end)).length, 1);
});

Deno.test("shards are even: 32 000 timer ids shaped like ours fall within ±15 % of 1 000 a shard", () => {
  // Seeded, so the test reads the same ids every run.
  const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  let seed = 0x2545f491;
  const next = () => (seed ^= seed << 13, seed ^= seed >>> 17, seed ^= seed << 5, seed >>> 0);
  const counts = new Array(SHARDS).fill(0);
  for (let i = 0; i < 32_000; i++) {
    let id = "tmr_";
    for (let c = 0; c < 16; c++) id += ALPHABET[next() % ALPHABET.length];
    counts[shardOf(id)]++;
  }
  for (const c of counts) assert.ok(c > 850 && c < 1150, `a shard got ${c}: ${counts}`);
});

Deno.test("two instances take 16 shards each, three 11, 11 and 10; a newcomer gets its share", async () => {
  const { kv, store } = await kvStore();
  const mono = { t: 0 };
  try {
    const a = instance(store, "a", mono);
    await a.round();
    assert.equal(a.shards.held.length, SHARDS, "alone, it takes every shard at once");
    const b = instance(store, "b", mono);
    await settle([a, b]);
    await assertDivided(store, [a, b]);
    assert.deepEqual([a, b].map((x) => x.shards.held.length), [16, 16]);
    const c = instance(store, "c", mono);
    await settle([a, b, c]);
    await assertDivided(store, [a, b, c]);
    assert.deepEqual([a, b, c].map((x) => x.shards.held.length).sort(), [10, 11, 11]);
  } finally {
    kv.close();
  }
});

Deno.test("a rolling upgrade: instances of the hash-shard versions are not counted, the range ones divide every shard", async () => {
  const { kv, store } = await kvStore();
  const mono = { t: 0 };
  try {
    const a = instance(store, "a", mono), b = instance(store, "b", mono);
    // Two old instances beat with bare numbers and hold their leases under the old key.
    for (let n = 1; n <= 3; n++) {
      for (const old of ["old1", "old2"]) await store.timers.beat(old, n);
      await kv.set(["shard", n], { by: "old1" });
      await settle([a, b]);
    }
    await assertDivided(store, [a, b]);
    assert.deepEqual([a, b].map((x) => x.shards.held.length), [16, 16], "the old ones left no range shard unheld");
  } finally {
    kv.close();
  }
});

Deno.test("two instances claiming at once start at their own places: both get shards in that round", async () => {
  const { kv, store } = await kvStore();
  const mono = { t: 0 };
  try {
    // Named as instances are (crypto.randomUUID().slice(0, 13)); c holds every shard while a and b
    // learn of each other, then stops cleanly: a and b both find 32 free shards in the same round.
    const [a, b] = ["3f0c9d2e-51ab", "b7e41a06-9c2d"].map((name) => instance(store, name, mono));
    const c = instance(store, "c", mono);
    await c.round();
    for (let i = 0; i < 3; i++) {
      await c.beat(); // alive, no round: it keeps every shard
      for (const x of [a, b]) await x.round();
    }
    assert.deepEqual([a, b].map((x) => x.shards.held.length), [0, 0]);
    await c.shards.releaseAll();
    await store.timers.beat("c", STOPPED);
    await Promise.all([a.beat(), b.beat()]);
    await Promise.all([a.shards.rebalance(), b.shards.rebalance()]);
    assert.ok(
      a.shards.held.length > 0 && b.shards.held.length > 0,
      `both asked for different shards: a ${a.shards.held}, b ${b.shards.held}`,
    );
    await settle([a, b]);
    await assertDivided(store, [a, b]);
  } finally {
    kv.close();
  }
});

Deno.test("an instance that stops cleanly hands its shards over at once", async () => {
  const { kv, store } = await kvStore();
  const mono = { t: 0 };
  try {
    const a = instance(store, "a", mono), b = instance(store, "b", mono);
    await settle([a, b]);
    assert.equal(b.shards.held.length, 16);
    await a.shards.releaseAll();
    await store.timers.beat("a", STOPPED);
    // No time passes: the next round of the other takes everything.
    const r = await b.round();
    assert.equal(r.gained.length, 16);
    await assertDivided(store, [b]);
  } finally {
    kv.close();
  }
});

Deno.test("an instance whose heartbeat stands still keeps its shards until the liveness bound, then loses them", async () => {
  const { kv, store } = await kvStore();
  const mono = { t: 0 };
  try {
    const a = instance(store, "a", mono), b = instance(store, "b", mono);
    await settle([a, b]);
    const held = a.shards.held;
    assert.equal(held.length, 16);
    // a goes silent (a long pause, or a kill): b keeps rounding and beating.
    const bound = b.lease.deadAfterMs;
    await b.round(); // b notes a's counter as it now stands
    mono.t += bound - 1_000;
    let r = await b.round();
    assert.deepEqual(r.gained, [], "a live but slow instance keeps its shards");
    assert.equal(b.shards.held.length, 16, "and b claims nothing beyond its share meanwhile");
    // a beats once more (it was only slow): its silence starts over when b sees it.
    await a.beat();
    r = await b.round();
    mono.t += bound - 1_000;
    r = await b.round();
    assert.deepEqual(r.gained, []);
    mono.t += 2_000;
    r = await b.round();
    assert.deepEqual(r.gained.sort((x, y) => x - y), held, "past the bound, b takes a's shards");
    await assertDivided(store, [b]);
    // a wakes up: its next round learns it lost them, and it claims none back from a running b.
    const back = await a.round();
    assert.deepEqual(back.lost.sort((x, y) => x - y), held);
    assert.equal(a.shards.held.length, 0);
  } finally {
    kv.close();
  }
});

Deno.test("a process alone on its KV holds every shard and takes other instances' claims at once", async () => {
  const { kv, store } = await kvStore();
  try {
    const lease = new Lease({ timeoutMs: 10_000, mono: () => 0, alone: true });
    const shards = new Shards({ store, lease, sharing: "all" });
    assert.equal(shards.held.length, SHARDS);
    assert.ok(shards.holdsRef("tmr_anything"));
    assert.deepEqual(await shards.rebalance(), { gained: [], lost: [] });
    assert.equal((await store.shards.leases()).length, 0, "nothing written, nothing read");
    // A counter just seen, that may still move: gone all the same (no other server can run).
    assert.deepEqual([...lease.observe(new Map([["killed", 7]]))], ["killed"]);
    // Control: sharing the KV, the same first sight is not gone.
    const shared = new Lease({ timeoutMs: 10_000, mono: () => 0 });
    assert.deepEqual([...shared.observe(new Map([["killed", 7]]))], []);
  } finally {
    kv.close();
  }
});

Deno.test("an instance steps what its own commits scheduled outside its shards, and nothing else of them", async () => {
  const { kv, store } = await kvStore();
  try {
    const x = instance(store, "x", { t: 0 });
    await x.round();
    // Another instance holds the shard of tmr_b: x lets go of all but the others' (a fresh KV: x takes all first).
    const other = instance(store, "y", { t: 0 });
    await settle([x, other]);
    const ref = ["tmr_0a", "tmr_Ga", "tmr_Wa", "tmr_ma"].find((r) => !x.shards.holdsRef(r))!;
    const item = { at: 1_000, kind: "timer" as const, ref };
    assert.equal(x.shards.steps(item), false);
    x.shards.scheduled([item, { at: 1_000, kind: "expire", ref }], 0);
    assert.equal(x.shards.steps(item), true, "scheduled by its own commit");
    assert.equal(x.shards.steps({ ...item, at: 2_000 }), false, "another instant of it stays its holder's");
    assert.equal(x.shards.steps({ ...item, kind: "expire" }), false, "expiries are the holder's sweep's");
    assert.equal(x.shards.steps({ at: 1_000, kind: "delivery", ref: `${ref}/evt_1` }), false);
  } finally {
    kv.close();
  }
});

Deno.test("an instance reads only its shards' records of an instant, and what its own commits scheduled outside them", async () => {
  const { kv, store } = await kvStore();
  try {
    // Three: one holds the first shards, one the last, one those between (a range with both ends).
    const all = ["x", "y", "z"].map((name) => instance(store, name, { t: 0 }));
    await settle(all);
    const at = 5_000;
    const ids = Array.from({ length: 300 }, () => newTimerId());
    for (const id of ids) {
      await kv.set(key.dueRecord(at, "timer", id), { kind: "timer", timer: { id } });
      await kv.set(key.dueRecord(at, "delivery", `${id}/evt_1`), { kind: "delivery", delivery: { id: "evt_1" } });
      await kv.set(key.dueRecord(at + 1, "timer", id), { kind: "timer", timer: { id } }); // another instant
    }
    // Over a network the ranges are cut finer and read side by side: the same entries.
    const remote = new Store(kv, { useQueue: false, limits: REMOTE_KV_LIMITS });
    let total = 0;
    for (const [n, x] of all.entries()) {
      const elsewhere = ids.find((id) => !x.shards.holdsRef(id))!;
      x.shards.scheduled([{ at, kind: "timer", ref: elsewhere }], 0);
      const { ranges, own } = x.shards.toRead([at], n === 2 ? 8 : 1);
      if (n === 2) assert.ok(ranges!.length >= 5, `${ranges!.length} ranges`);
      const read: string[] = [];
      for await (const page of (n === 2 ? remote : store).timers.recordsAt([at], ranges, own)) {
        for (const e of page) read.push(`${e.item.at} ${e.item.kind} ${e.item.ref}`);
      }
      const mine = ids.filter((id) => x.shards.holdsRef(id));
      total += mine.length;
      assert.ok(mine.length > 50 && mine.length < 150, `${x.lease.instance} holds about a third: ${mine.length}`);
      const want = [
        ...mine.flatMap((id) => [`${at} timer ${id}`, `${at} delivery ${id}/evt_1`]),
        `${at} timer ${elsewhere}`,
      ];
      assert.deepEqual(read.sort(), want.sort(), `${x.lease.instance} holding ${x.shards.held}`);
    }
    assert.equal(total, ids.length);
    // Holding every shard reads the whole instant as one range.
    const whole = new Shards({ store, lease: all[0].lease, sharing: "all" }).toRead([at]);
    let n = 0;
    for await (const page of store.timers.recordsAt([at], whole.ranges, whole.own)) n += page.length;
    assert.equal(n, 600);
  } finally {
    kv.close();
  }
});
