/**
 * The store's work of a burst alone, in this process: N seeded event timers (bench/burst.ts) due
 * at one instant, their records read as a wake-up reads them, planned and committed in chunks of
 * 100 as the scheduler does, then each delivery's outcome recorded in groups of G (answers in a
 * random order unless VARIANT has `inorder`). Prints CPU per timer by thread (user + sys; `sw` is
 * KV's SQLite writer) for each phase. VARIANT (comma-separated) leaves a part of the writes out or
 * keys it otherwise, to weigh it: `noacct`, `nomarker`, `nosum`, `acctT` (the account index keyed
 * in timer order), `acct1` (one account), `outnomarker` (outcomes keep the claim's due entry).
 *
 *   N=10000 G=32 VARIANT=noacct deno run -A bench/store_cost.ts
 */
import { seedBurst } from "./burst.ts";
import { Store } from "../lib/kv/store.ts";
import { DeliveryStore } from "../lib/kv/deliveries.ts";
import { TimerStore } from "../lib/kv/timers.ts";
import type { DueEntry } from "../lib/kv/due.ts";
import { catchUp } from "../lib/timers/model.ts";
import { planTimerChange } from "../lib/timers/changes.ts";
import { afterAttempt, type Delivery } from "../lib/webhooks/delivery_model.ts";

const N = Number(Deno.env.get("N") ?? 10_000);
const G = Number(Deno.env.get("G") ?? 32);
const V = (Deno.env.get("VARIANT") ?? "").split(",");

const dropped = (k: Deno.KvKey) =>
  (V.includes("nomarker") && k[0] === "due" && k[2] === "delivery") ||
  (V.includes("noacct") && k[0] === "acct_delivery") || (V.includes("nosum") && k[0] === "log_n");
const timerWrite = TimerStore.prototype.timerWrite;
TimerStore.prototype.timerWrite = function (c) {
  const out = timerWrite.call(this, c);
  const w = out.write;
  w.sets = w.sets.filter((s) => !dropped(s.key));
  w.sums = w.sums?.filter((s) => !dropped(s.key));
  for (const s of w.sets) {
    if (s.key[0] !== "acct_delivery") continue;
    if (V.includes("acctT")) s.key = ["acct_delivery", "x", c.timer.id, s.key[2]];
    if (V.includes("acct1")) s.key = ["acct_delivery", "x", s.key[2]];
  }
  return out;
};
const deliveryWrite = DeliveryStore.prototype.deliveryWrite;
DeliveryStore.prototype.deliveryWrite = function (c, now) {
  const w = deliveryWrite.call(this, c, now);
  if (V.includes("outnomarker")) w.deletes = w.deletes.filter((k) => k[0] !== "due");
  return w;
};

/** CPU ms of this process's threads by name: [user, sys]. */
function cpu(): Map<string, [number, number]> {
  const out = new Map<string, [number, number]>();
  for (const t of Deno.readDirSync("/proc/self/task")) {
    try {
      const s = Deno.readTextFileSync(`/proc/self/task/${t.name}/stat`);
      const name = s.slice(s.indexOf("(") + 1, s.lastIndexOf(")")).replace(/[-_ ]?\d+$/, "");
      const f = s.slice(s.lastIndexOf(")") + 2).split(" ");
      const o = out.get(name) ?? [0, 0];
      out.set(name, [o[0] + Number(f[11]) * 10, o[1] + Number(f[12]) * 10]);
    } catch { /* the thread ended */ }
  }
  return out;
}

let commits = 0;
const atomic = Deno.Kv.prototype.atomic;
Deno.Kv.prototype.atomic = function () {
  const op = atomic.call(this);
  const commit = op.commit.bind(op);
  op.commit = () => (commits++, commit());
  return op;
};

/** Runs a phase; prints its wall time, commits and CPU per timer by thread. */
async function phase(name: string, run: () => Promise<void>): Promise<void> {
  const c0 = cpu(), n0 = commits, t0 = performance.now();
  await run();
  const per: Record<string, string> = {};
  for (const [k, [u, s]] of cpu()) {
    const [u0, s0] = c0.get(k) ?? [0, 0];
    if (u + s > u0 + s0) {
      per[k] = `${((u - u0 + s - s0) / N * 1000).toFixed(1)} µs (sys ${((s - s0) / N * 1000).toFixed(1)})`;
    }
  }
  // deno-lint-ignore no-console
  console.log(name, `${Math.round(performance.now() - t0)} ms`, `${commits - n0} commits`, JSON.stringify(per));
}

const path = await Deno.makeTempFile({ suffix: ".kv" });
const deadline = Date.now() + 60_000;
await seedBurst(path, N, deadline, "http://127.0.0.1:9/hook");
const kv = await Deno.openKv(path);
const store = new Store(kv, { useQueue: true });
try {
  const entries: DueEntry[] = [];
  await phase("read", async () => {
    for await (const page of store.timers.recordsAt([deadline])) entries.push(...page);
  });
  const now = deadline + 5;
  const born: { delivery: Delivery; versionstamp: string }[] = [];
  await phase("completions", async () => {
    for (let i = 0; i < entries.length; i += 100) {
      const changes = entries.slice(i, i + 100).flatMap((e) => {
        const t = e.value.kind === "timer" ? e.value.timer : undefined;
        if (!t) return [];
        const { timer: next, events } = catchUp(t, now, 10);
        return [planTimerChange(t, e.versionstamp, next, events, { now, claimUntil: now + 13_000, claimBy: "x" })];
      });
      await store.timers.commitTimers(changes, (c) => born.push(...c.born));
    }
  });
  if (!V.includes("inorder")) {
    for (let i = born.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [born[i], born[j]] = [born[j], born[i]];
    }
  }
  await phase("outcomes", async () => {
    for (let i = 0; i < born.length; i += G) {
      const changes = born.slice(i, i + G).map(({ delivery: d, versionstamp }) => ({
        versionstamp,
        prev: d,
        next: afterAttempt(d, { ok: true, status: 200, error: null, duration_ms: 3 }, now + 10, now + 13, [60]),
      }));
      const stamps = await store.deliveries.commitDeliveries(changes, now + 13);
      if (stamps.some((s) => s === null)) throw new Error("an outcome failed its check");
    }
  });
} finally {
  kv.close();
  for (const s of ["", "-wal", "-shm"]) await Deno.remove(path + s).catch(() => {});
}
