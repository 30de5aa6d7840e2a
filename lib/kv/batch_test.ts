import assert from "node:assert/strict";
import {
  addCount,
  commitWrites,
  emptyWrite,
  GET_MANY_MAX,
  getManyChunked,
  type KvWrite,
  LOCAL_KV_LIMITS,
  packWrites,
  probeKvLimits,
  REMOTE_KV_LIMITS,
  writeCost,
  WriteTooLarge,
} from "./batch.ts";

/** A write shaped like a completion: one check, a few sets of ~700-byte records. */
function completion(i: number, sets = 4): KvWrite {
  const w = emptyWrite();
  w.checks.push({ key: ["t", i], versionstamp: null });
  for (let n = 0; n < sets; n++) w.sets.push({ key: ["t", i, n], value: { pad: "x".repeat(700) } });
  return w;
}

Deno.test("the limits are asked of the backend: 100 checks where 11 pass, 10 where they are refused", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    assert.deepEqual(await probeKvLimits(kv), LOCAL_KV_LIMITS);
    assert.equal((await kv.get(["probe", "checks", 0])).versionstamp, null, "the probe writes nothing");
    // A backend that refuses an 11th check, as denokv does, and one whose answer is lost.
    const refusing = {
      atomic() {
        const op = kv.atomic();
        let checks = 0;
        const check = op.check.bind(op);
        return Object.assign(op, {
          check: (...c: Deno.AtomicCheck[]) => (checks += c.length, check(...c)),
          commit: () => checks > 10 ? Promise.reject(new TypeError("too many checks")) : op.commit(),
        });
      },
    } as unknown as Deno.Kv;
    assert.deepEqual(await probeKvLimits(refusing), REMOTE_KV_LIMITS);
    const failing = { atomic: () => ({ check() {}, commit: () => Promise.reject(new Error("network")) }) };
    assert.deepEqual(await probeKvLimits(failing as unknown as Deno.Kv), REMOTE_KV_LIMITS);
  } finally {
    kv.close();
  }
});

Deno.test("a store across a network (reads of 10 ms) gets many commits in flight, whatever its checks", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    // Deploy's managed KV: 100 checks, a round trip away.
    const far = Object.assign(Object.create(kv), {
      atomic: () => kv.atomic(),
      get: (k: Deno.KvKey) => new Promise((r) => setTimeout(r, 10)).then(() => kv.get(k)),
    }) as Deno.Kv;
    const limits = await probeKvLimits(far);
    assert.equal(limits.checks, LOCAL_KV_LIMITS.checks);
    assert.equal(limits.inFlight, REMOTE_KV_LIMITS.inFlight);
    assert.ok(REMOTE_KV_LIMITS.inFlight! > LOCAL_KV_LIMITS.inFlight!);
  } finally {
    kv.close();
  }
});

/** A KV whose commits take `ms` (with jitter when `jitter`), counting how many are in flight at once. */
function slowKv(kv: Deno.Kv, ms: number, jitter = false) {
  const seen = { now: 0, max: 0, commits: 0 };
  const atomic = kv.atomic.bind(kv);
  kv.atomic = () => {
    const op = atomic();
    const commit = op.commit.bind(op);
    op.commit = async () => {
      seen.now++;
      seen.commits++;
      seen.max = Math.max(seen.max, seen.now);
      await new Promise((r) => setTimeout(r, jitter ? ms * (seen.commits % 3 === 1 ? 3 : 1) : ms));
      try {
        return await commit();
      } finally {
        seen.now--;
      }
    };
    return op;
  };
  return seen;
}

Deno.test("commitWrites keeps inFlight commits going at once and returns every write's versionstamp in order", async () => {
  const kv = await Deno.openKv(":memory:");
  const seen = slowKv(kv, 20);
  try {
    const writes = Array.from({ length: 100 }, (_, i) => completion(i, 1));
    const announced: number[] = [];
    const stamps = await commitWrites(
      kv,
      writes,
      { ...REMOTE_KV_LIMITS, inFlight: 4 },
      (first, s) => announced.push(...s.map((_, i) => first + i)),
    );
    assert.equal(seen.commits, 10);
    assert.equal(seen.max, 4, "four commits at once, no more");
    assert.ok(stamps.every((s) => s !== null));
    assert.deepEqual(announced.sort((a, b) => a - b), Array.from({ length: 100 }, (_, i) => i));
    // A versionstamp per write, that of the commit that applied it.
    for (const i of [0, 9, 10, 99]) assert.equal((await kv.get(["t", i, 0])).versionstamp, stamps[i]);
    // One at a time when told so.
    seen.max = 0;
    await commitWrites(kv, Array.from({ length: 30 }, (_, i) => completion(1000 + i, 1)), {
      ...REMOTE_KV_LIMITS,
      inFlight: 1,
    });
    assert.equal(seen.max, 1);
  } finally {
    kv.close();
  }
});

Deno.test("commits touching one key land in their order, however long each takes; counters do not wait", async () => {
  const kv = await Deno.openKv(":memory:");
  // Every third commit is three times slower: without the ordering, later packs would land first.
  const seen = slowKv(kv, 10, true);
  try {
    const limits = { ...REMOTE_KV_LIMITS, checks: 1, inFlight: 8 };
    const writes: KvWrite[] = [];
    for (let i = 0; i < 6; i++) {
      const w = completion(i, 1);
      w.sets.push({ key: ["shared"], value: i });
      writes.push(w);
    }
    // A check on a key an earlier write sets fails, as when committed one after the other.
    const late = emptyWrite();
    late.checks.push({ key: ["shared"], versionstamp: null });
    late.sets.push({ key: ["late"], value: true });
    writes.push(late);
    const stamps = await commitWrites(kv, writes, limits);
    assert.equal((await kv.get(["shared"])).value, 5, "the last write's value stays");
    assert.equal(stamps[6], null, "its check saw the earlier writes");
    assert.equal(seen.max, 1, "they went one at a time");

    seen.max = 0;
    const counted = Array.from({ length: 16 }, (_, i) => {
      const w = completion(100 + i, 1);
      addCount(w, ["count"], 1);
      return w;
    });
    await commitWrites(kv, counted, limits);
    assert.equal((await kv.get<Deno.KvU64>(["count"])).value?.value, 16n);
    assert.ok(seen.max > 1, `sums on one counter commute: ${seen.max} in flight`);
  } finally {
    kv.close();
  }
});

Deno.test("when a commit in flight throws, no further one starts, those in flight land and are announced", async () => {
  const kv = await Deno.openKv(":memory:");
  const atomic = kv.atomic.bind(kv);
  let commits = 0;
  kv.atomic = () => {
    const op = atomic();
    const commit = op.commit.bind(op);
    const n = ++commits;
    op.commit = async () => {
      await new Promise((r) => setTimeout(r, n === 2 ? 5 : 30));
      if (n === 2) throw new Error("database is gone");
      return await commit();
    };
    return op;
  };
  const announced: number[] = [];
  await assert.rejects(
    commitWrites(
      kv,
      Array.from({ length: 100 }, (_, i) => completion(i, 1)),
      { ...REMOTE_KV_LIMITS, inFlight: 4 },
      (f) => announced.push(f),
    ),
    /database is gone/,
  );
  assert.equal(commits, 4, "the four in flight, none after the failure");
  assert.deepEqual(announced.sort((a, b) => a - b), [0, 20, 30]);
  assert.ok((await kv.get(["t", 30, 0])).versionstamp, "a pack in flight landed");
  assert.equal((await kv.get(["t", 40, 0])).versionstamp, null, "none started after");
  kv.close();
});

Deno.test("packing respects checks, mutations and key bytes, in order, and never divides a write", () => {
  const small = Array.from({ length: 250 }, (_, i) => completion(i, 1));
  assert.deepEqual(packWrites(small, LOCAL_KV_LIMITS).map((p) => p.length), [100, 100, 50]);
  assert.deepEqual(packWrites(small.slice(0, 25), REMOTE_KV_LIMITS).map((p) => p.length), [10, 10, 5]);
  // 300 mutations each: three per commit by mutations.
  const wide = Array.from({ length: 7 }, (_, i) => {
    const w = emptyWrite();
    for (let n = 0; n < 300; n++) w.deletes.push(["d", i, n]);
    return w;
  });
  assert.deepEqual(packWrites(wide, LOCAL_KV_LIMITS).map((p) => p.length), [3, 3, 1]);
  // ~1 KB of keys each: key bytes decide before the 100 checks.
  const longKeys = Array.from({ length: 300 }, (_, i) => {
    const w = emptyWrite();
    w.checks.push({ key: ["t", i], versionstamp: null });
    for (let n = 0; n < 3; n++) w.deletes.push(["k", "x".repeat(330), i, n]);
    return w;
  });
  const packs = packWrites(longKeys, LOCAL_KV_LIMITS);
  for (const p of packs) {
    const keyBytes = p.reduce((s, w) => s + writeCost(w).keyBytes, 0);
    assert.ok(keyBytes <= LOCAL_KV_LIMITS.keyBytes && p.length < 100, `${p.length} writes, ${keyBytes} key bytes`);
  }
  assert.deepEqual(packs.flat().map((w) => w.checks[0].key[1]), Array.from({ length: 300 }, (_, i) => i));
});

Deno.test("a burst's completions, ids and keys in ASCII, go 100 to a commit; keys beyond ASCII weigh no less than KV counts", async () => {
  // Shaped like a completion's write: the timer checked and set, its due entries deleted, a delivery
  // born claimed with its index entries and its log's counter.
  const id = (i: number) => `tmr_${String(i).padStart(16, "0")}`;
  const evt = (i: number) => `evt_0mwz1bfia${String(i).padStart(14, "0")}`;
  const burst = Array.from({ length: 250 }, (_, i) => {
    const w = emptyWrite();
    w.checks.push({ key: ["timer", id(i)], versionstamp: null });
    w.sets.push(
      { key: ["timer", id(i)], value: 1 },
      { key: ["due", 1795787186959, "delivery", `${id(i)}/${evt(i)}`], value: 1 },
      { key: ["delivery", id(i), evt(i)], value: 1 },
      { key: ["acct_delivery", "acct_B1JVsd7CVK4k", evt(i)], value: 1 },
    );
    w.deletes.push(["due", 1795787173954, "timer", id(i)], ["due_rec", 1795787173954, "timer", id(i)]);
    addCount(w, ["log_n", id(i)], 1);
    return w;
  });
  assert.deepEqual(packWrites(burst, LOCAL_KV_LIMITS).map((p) => p.length), [100, 100, 50]);
  // Keys of three-byte characters (and NULs, which KV escapes): a pack as heavy as the estimate allows is accepted.
  const wide = Array.from({ length: 400 }, (_, i) => {
    const w = emptyWrite();
    w.sets.push({ key: ["w", `${"€".repeat(60)}\u0000${i}`], value: 1 });
    return w;
  });
  const packs = packWrites(wide, { ...LOCAL_KV_LIMITS, checks: 1000 });
  assert.ok(packs.length > 1, "the key bytes decide");
  const kv = await Deno.openKv(":memory:");
  try {
    for (const p of packs) {
      const stamps = await commitWrites(kv, p, { ...LOCAL_KV_LIMITS, checks: 1000 });
      assert.ok(stamps.every((s) => s !== null));
    }
  } finally {
    kv.close();
  }
});

Deno.test("a pack KV refuses as too large is halved until every write lands, in order", async () => {
  const kv = await Deno.openKv(":memory:");
  // 20 KB each: a pack of 100 (by checks) is ~2 MB, over the 800 KiB one commit may hold.
  const big = (i: number) => {
    const w = emptyWrite();
    w.checks.push({ key: ["b", i], versionstamp: null });
    w.sets.push({ key: ["b", i], value: "y".repeat(20_000) });
    return w;
  };
  const announced: number[] = [];
  const stamps = await commitWrites(
    kv,
    Array.from({ length: 250 }, (_, i) => big(i)),
    { ...LOCAL_KV_LIMITS, inFlight: 1 },
    (first, s) => announced.push(first, s.length),
  );
  assert.equal(stamps.length, 250);
  assert.ok(stamps.every((s) => s !== null));
  assert.deepEqual(
    announced,
    [0, 25, 25, 25, 50, 25, 75, 25, 100, 25, 125, 25, 150, 25, 175, 25, 200, 25, 225, 25],
    "announced per commit as it lands",
  );
  for (const i of [0, 99, 100, 249]) assert.equal((await kv.get<string>(["b", i])).value?.length, 20_000);
  kv.close();
});

Deno.test("a value too large for KV is not split around: the pack fails whole, nothing of it lands", async () => {
  const kv = await Deno.openKv(":memory:");
  const writes = Array.from({ length: 8 }, (_, i) => {
    const w = emptyWrite();
    w.sets.push({ key: ["v", i], value: i === 5 ? "z".repeat(70_000) : "ok" });
    return w;
  });
  const announced: number[] = [];
  await assert.rejects(() => commitWrites(kv, writes, LOCAL_KV_LIMITS, (first) => announced.push(first)), /too large/);
  assert.deepEqual(announced, []);
  assert.equal((await kv.get(["v", 0])).versionstamp, null);
  kv.close();
});

Deno.test("a write that no commit can hold is refused, not dropped", () => {
  const huge = emptyWrite();
  for (let n = 0; n < 1001; n++) huge.sets.push({ key: ["h", n], value: n });
  assert.throws(() => packWrites([huge], LOCAL_KV_LIMITS), WriteTooLarge);
});

Deno.test("commitWrites commits thousands of mutations and reports each conflict alone", async () => {
  const kv = await Deno.openKv(":memory:");
  await kv.set(["t", 7], "taken");
  const writes = Array.from({ length: 300 }, (_, i) => completion(i));
  const stamps = await commitWrites(kv, writes, LOCAL_KV_LIMITS);
  assert.equal(stamps.length, 300);
  assert.equal(stamps[7], null, "its check failed: the value is there");
  assert.equal(stamps.filter((s) => s === null).length, 1);
  assert.equal((await kv.get(["t", 299, 3])).versionstamp !== null, true);
  assert.equal((await kv.get(["t", 7, 0])).versionstamp, null);
  kv.close();
});

Deno.test("when a conflict's writes go on alone and one of them throws, those that landed are still announced", async () => {
  const kv = await Deno.openKv(":memory:");
  await kv.set(["t", 1], "taken");
  const atomic = kv.atomic.bind(kv);
  let commits = 0;
  kv.atomic = () => {
    const op = atomic();
    const commit = op.commit.bind(op);
    // 1: the pack (its check on ["t", 1] fails); 2, 3: writes 0 and 1 alone; 4: KV fails.
    op.commit = () => ++commits === 4 ? Promise.reject(new Error("database is gone")) : commit();
    return op;
  };
  const announced: [number, (string | null)[]][] = [];
  await assert.rejects(
    commitWrites(kv, [0, 1, 2, 3].map((i) => completion(i)), LOCAL_KV_LIMITS, (f, s) => announced.push([f, s])),
    /database is gone/,
  );
  assert.equal(announced.length, 1);
  assert.equal(announced[0][0], 0);
  assert.equal(announced[0][1].length, 2);
  assert.ok(announced[0][1][0] !== null, "write 0 landed");
  assert.equal(announced[0][1][1], null, "write 1 conflicted");
  assert.ok((await kv.get(["t", 0, 0])).versionstamp, "and is there");
  kv.close();
});

Deno.test("getManyChunked reads any number of keys in order, GET_MANY_MAX at a time", async () => {
  using kv = await Deno.openKv(":memory:");
  for (let i = 0; i < 25; i += 2) await kv.set(["k", i], i);
  const sizes: number[] = [];
  const counted = new Proxy(kv, {
    get: (target, name) =>
      name === "getMany"
        ? (keys: Deno.KvKey[]) => (sizes.push(keys.length), target.getMany(keys))
        : Reflect.get(target, name).bind?.(target) ?? Reflect.get(target, name),
  });
  const entries = await getManyChunked<number>(counted, Array.from({ length: 25 }, (_, i) => ["k", i]));
  assert.deepEqual(entries.map((e) => e.value), Array.from({ length: 25 }, (_, i) => i % 2 ? null : i));
  assert.deepEqual(sizes, [GET_MANY_MAX, GET_MANY_MAX, 5]);
});

Deno.test("commitWrites in flight: a later pack's sum on a key an earlier pack sets lands after it", async () => {
  const kv = await Deno.openKv(":memory:");
  const K = ["counter"];
  // Pack 1: sets K to 100, plus other keys (so it has MORE exclusive keys than pack 2).
  const a = emptyWrite();
  a.sets.push({ key: K, value: new Deno.KvU64(100n) });
  for (let i = 0; i < 3; i++) a.sets.push({ key: ["other", i], value: i });
  // Pack 2: one exclusive key and a sum on K.
  const b = emptyWrite();
  b.sets.push({ key: ["b"], value: 1 });
  b.sums = [{ key: K, value: 1n }];
  // Delay pack 1's commit so that a concurrent pack 2 lands first.
  const atomic = kv.atomic.bind(kv);
  let n = 0;
  kv.atomic = () => {
    const op = atomic();
    const commit = op.commit.bind(op);
    const mine = ++n;
    op.commit = async () => {
      if (mine === 1) await new Promise((r) => setTimeout(r, 50));
      return await commit();
    };
    return op;
  };
  // mutations: 4 → each write is its own pack.
  await commitWrites(kv, [a, b], { ...LOCAL_KV_LIMITS, mutations: 4, inFlight: 2 });
  const v = (await kv.get<Deno.KvU64>(K)).value!.value;
  kv.close();
  assert.equal(v, 101n, "serial order: set 100, then +1");
});
