import assert from "node:assert/strict";
import { Store } from "../kv/store.ts";
import { markGone, takeSlot } from "./instance_slot.ts";
import { STOPPED } from "./lease.ts";

Deno.test("instance slots: the first free one is taken, and its last holder's name is read once it is free", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const a = (await takeSlot(dir, "http://kv.example/a"))!;
    assert.deepEqual([a.n, a.predecessor], [0, null]);
    await a.record("first-process");
    const b = (await takeSlot(dir, "http://kv.example/a"))!;
    assert.deepEqual([b.n, b.predecessor], [1, null]);
    // Another KV's instances have slots of their own.
    const other = (await takeSlot(dir, "http://kv.example/b"))!;
    assert.deepEqual([other.n, other.predecessor], [0, null]);
    a.close(); // as the OS does when the process dies
    const c = (await takeSlot(dir, "http://kv.example/a"))!;
    assert.deepEqual([c.n, c.predecessor], [0, "first-process"]);
    await c.record("third");
    c.close();
    const d = (await takeSlot(dir, "http://kv.example/a"))!;
    assert.deepEqual([d.n, d.predecessor], [0, "third"]);
    d.close();
    // What is not a line written by a process in this very file is no proof of anything.
    for (const e of Deno.readDirSync(dir)) {
      if (e.name.endsWith("-0.lock")) Deno.writeTextFileSync(`${dir}/${e.name}`, "not a name\n../x");
    }
    const f = (await takeSlot(dir, "http://kv.example/a"))!;
    assert.deepEqual([f.n, f.predecessor], [0, null]);
    for (const s of [b, other, f]) s.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("instance slots: a copy of the folder names nobody (its files are other files), so a live process is never taken for gone", async () => {
  const dir = await Deno.makeTempDir();
  const copy = await Deno.makeTempDir();
  try {
    const a = (await takeSlot(dir, "kv"))!;
    await a.record("alive");
    // A backup restored, or the install copied to run a second one, while `alive` runs.
    for (const e of Deno.readDirSync(dir)) await Deno.copyFile(`${dir}/${e.name}`, `${copy}/${e.name}`);
    const b = (await takeSlot(copy, "kv"))!;
    assert.deepEqual([b.n, b.predecessor], [0, null]);
    a.close();
    b.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(copy, { recursive: true });
  }
});

Deno.test("markGone: a heartbeat that stood still is replaced by 'stopped'; one still beating, none, or a clean stop is left alone", async () => {
  const kv = await Deno.openKv(":memory:");
  const store = new Store(kv);
  const opts = { stillMs: 30 };
  try {
    assert.equal(await markGone(store.shards, "never-beat", opts), "none");
    assert.equal(await store.shards.heartbeat("never-beat"), null, "no key written for a name without a heartbeat");

    await store.timers.beat("clean", STOPPED);
    assert.equal(await markGone(store.shards, "clean", opts), "none");

    await store.timers.beat("dead", "r41");
    assert.equal(await markGone(store.shards, "dead", opts), "stopped");
    assert.equal((await store.shards.heartbeat("dead"))?.value, STOPPED);

    // A live process beats every few ms here: each round finds it moved.
    let n = 0;
    await store.timers.beat("alive", `r${n}`);
    const beating = setInterval(() => void store.timers.beat("alive", `r${++n}`), 5);
    try {
      assert.equal(await markGone(store.shards, "alive", opts), "beating");
    } finally {
      clearInterval(beating);
    }
    assert.notEqual((await store.shards.heartbeat("alive"))?.value, STOPPED);

    // A beat the dead process sent before it died, landing during the first round: the second one marks it.
    await store.timers.beat("late", "r7");
    const late = setTimeout(() => void store.timers.beat("late", "r8"), 10);
    assert.equal(await markGone(store.shards, "late", opts), "stopped");
    clearTimeout(late);

    // A shutdown ends the wait without writing.
    await store.timers.beat("waiting", "r1");
    const stop = new AbortController();
    const marking = markGone(store.shards, "waiting", { stillMs: 60_000, signal: stop.signal });
    stop.abort();
    assert.equal(await marking, "none");
    assert.equal((await store.shards.heartbeat("waiting"))?.value, "r1");
  } finally {
    kv.close();
  }
});
