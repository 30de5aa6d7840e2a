import assert from "node:assert/strict";
import {
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
    for (let n = 0; n < 3; n++) w.deletes.push(["k", "x".repeat(100), i, n]);
    return w;
  });
  const packs = packWrites(longKeys, LOCAL_KV_LIMITS);
  for (const p of packs) {
    const keyBytes = p.reduce((s, w) => s + writeCost(w).keyBytes, 0);
    assert.ok(keyBytes <= LOCAL_KV_LIMITS.keyBytes && p.length < 100, `${p.length} writes, ${keyBytes} key bytes`);
  }
  assert.deepEqual(packs.flat().map((w) => w.checks[0].key[1]), Array.from({ length: 300 }, (_, i) => i));
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
    LOCAL_KV_LIMITS,
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
