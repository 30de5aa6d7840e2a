/**
 * Commit floor: local KV commits completing timers, as bare as they get. N records shaped like a
 * stored timer (~600 bytes) are written first; each completion is one check (the timer's
 * versionstamp) and three writes (the timer, its due entry deleted, a delivery record), BATCH per
 * commit. Prints one JSON line {"msg":"commit_floor", "per_s": {"1":…, "10":…, "100":…}}.
 */
import { floorRecord } from "./floor_record.ts";

const kv = await Deno.openKv(Deno.env.get("KV_PATH")!);
const batches = (Deno.env.get("BATCHES") ?? "1,10,100").split(",").map(Number);
const seconds = Number(Deno.env.get("SECONDS") ?? 2);
const perS: Record<string, number> = {};

for (const batch of batches) {
  // Enough records for the run at any plausible rate.
  const n = batch === 1 ? 10_000 : batch === 10 ? 40_000 : 100_000;
  const entries: { key: Deno.KvKey; versionstamp: string; value: ReturnType<typeof floorRecord> }[] = [];
  for (let i = 0; i < n; i += 100) {
    const op = kv.atomic();
    const recs = Array.from({ length: 100 }, () => floorRecord());
    for (const r of recs) op.set(["timer", r.id], r).set(["due", r.created_at + 1, "timer", r.id], true);
    const res = await op.commit();
    for (const r of recs) {
      entries.push({ key: ["timer", r.id], versionstamp: res.ok ? res.versionstamp : "", value: r });
    }
  }
  let done = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < seconds * 1000 && done + batch <= entries.length) {
    const op = kv.atomic();
    for (const e of entries.slice(done, done + batch)) {
      const r = e.value;
      op.check({ key: e.key, versionstamp: e.versionstamp })
        .set(e.key, { ...r, state: "completed", completed_at: Date.now() })
        .delete(["due", r.created_at + 1, "timer", r.id])
        .set(["delivery", r.id, `evt_${done}`], { id: `evt_${done}`, timer_id: r.id, state: "pending", payload: r });
    }
    if (!(await op.commit()).ok) throw new Error("a floor commit failed its check");
    done += batch;
  }
  perS[batch] = Math.round(done / ((performance.now() - t0) / 1000));
}
// deno-lint-ignore no-console
console.log(JSON.stringify({ msg: "commit_floor", per_s: perS }));
kv.close();
