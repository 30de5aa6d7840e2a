/**
 * A short chaos run (bench/chaos.ts): two servers on one temp KV file under the mixed load, one or
 * two SIGKILLs and restarts, a receiver in its own process; the ledger must keep every promise.
 */
import assert from "node:assert/strict";
import { DEFAULTS, runChaos, summary } from "../bench/chaos.ts";

Deno.test({
  name: "chaos: two instances on one KV file, killed and restarted under load, lose nothing and send nothing late",
  // The servers' subprocesses and their pipes are ended by runChaos before it returns.
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "chaos-test-" });
    try {
      const r = await runChaos({
        ...DEFAULTS,
        seconds: 75,
        instances: 2,
        actors: 4,
        burst: 100,
        burstEverySeconds: 40,
        killEverySeconds: [20, 32],
        logPath: `${dir}/chaos-log.jsonl`,
        serverEnv: {},
        quiet: true,
      });
      const text = summary(r);
      const l = r.ledger;
      assert.ok(r.kills.length >= 1, `no instance was killed:\n${text}`);
      assert.ok(l.timers.checked >= 20, `too few timers checked to mean anything:\n${text}`);
      assert.ok(l.expected_min >= 50, `too few events implied to mean anything:\n${text}`);
      assert.ok(l.timers.deleted >= 3, `too few deletes:\n${text}`);
      assert.ok(r.bursts.length >= 1 && r.bursts[0].arrived > 0, `no burst arrived:\n${text}`);
      assert.deepEqual(r.broken, [], text);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
