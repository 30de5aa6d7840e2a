/** A rundown's delete stops its webhooks like a timer's: a tombstone in its first commit, finished by the sweep. */
import assert from "node:assert/strict";
import { key } from "../lib/kv/keys.ts";
import { claim } from "../lib/webhooks/delivery_model.ts";
import { advance, clocked, receiver } from "./helpers.ts";
import { talk } from "./rundown_helpers.ts";

Deno.test("a rundown delete cut short after its first commit sends no retry of the rundown, and the sweep removes its log", async () => {
  const s = await clocked();
  const rx = receiver(() => new Response("down", { status: 503 }));
  try {
    const r = await s.call("POST", "/api/v1/rundowns", { body: { items: [talk("One", 60)], webhook_url: rx.url } });
    const id = r.body.rundown_id;
    await s.call("POST", `/api/v1/rundowns/${id}/actions/start`);
    await advance(s, 0);
    await rx.waitFor(1); // rundown.started failed: its retry is pending
    const [pending] = await s.store.deliveries.deliveryLog(id);
    assert.equal(pending.delivery.state, "pending");
    // The process dies between the rundown's commit and the removal of its log.
    const finish = s.store.timers.finishDelete.bind(s.store.timers);
    s.store.timers.finishDelete = () => Promise.reject(new Error("crashed"));
    const del = await s.call("DELETE", `/api/v1/rundowns/${id}`);
    assert.equal(del.status, 500);
    s.store.timers.finishDelete = finish;
    assert.equal(await s.store.rundowns.get(id), null, "the rundown's commit landed");
    // Another instance cannot claim its retry: it would send it for the deleted rundown.
    const [left] = await s.store.deliveries.deliveryLog(id);
    const now = s.clock.now();
    const next = claim(left.delivery, now + 10_000, "another");
    const claimed = await s.store.deliveries.commitDeliveries(
      [{ versionstamp: left.versionstamp, prev: left.delivery, next }],
      now,
      false,
    );
    assert.deepEqual(claimed, [null], "a claim lands while the rundown's log is still there");
    const sent = rx.received.length;
    // Its retries come due: none may be claimed (and sent) for the deleted rundown.
    await advance(s, 2_000);
    assert.equal(rx.received.length, sent, `sent after the delete: ${rx.received.map((x) => x.json.event)}`);
    await s.store.timers.finishDeletes();
    assert.deepEqual(await s.store.deliveries.deliveryLog(id), [], "its log is removed");
    assert.equal((await s.kv.get(key.timerGone(id))).value, null, "and then its tombstone");
  } finally {
    await rx.close();
    await s.close();
  }
});
