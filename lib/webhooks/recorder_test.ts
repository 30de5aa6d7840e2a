import assert from "node:assert/strict";
import type { Store } from "../kv/store.ts";
import type { Delivery, DeliveryChange } from "./delivery_model.ts";
import { OutcomeRecorder } from "./recorder.ts";

Deno.test("a hold an attempt waits for is committed while a group of outcomes still is", async () => {
  const outcomesHeld = Promise.withResolvers<void>();
  const committed: string[][] = [];
  const store = {
    timers: { limits: { inFlight: 2 } },
    deliveries: {
      async commitDeliveries(changes: DeliveryChange[]) {
        committed.push(changes.map((c) => c.next.id));
        if (changes.some((c) => c.next.state !== "pending")) await outcomesHeld.promise;
        return changes.map((c) => `vs-${c.next.id}`);
      },
    },
  } as unknown as Store;
  const recorder = new OutcomeRecorder({ store, now: () => 0, log: () => {} });
  const d = (id: string, state: string) => ({ id, state, timer_id: "t" }) as unknown as Delivery;
  const outcome = recorder.outcome({ versionstamp: "1", prev: d("a", "pending"), next: d("a", "succeeded") });
  await Promise.resolve();
  const renewal = recorder.grouped({ versionstamp: "1", prev: d("b", "pending"), next: d("b", "pending") });
  assert.equal(await renewal, "vs-b");
  assert.ok(recorder.busy, "the outcome is still being committed");
  outcomesHeld.resolve();
  assert.equal(await outcome, "vs-a");
  assert.deepEqual(committed, [["a"], ["b"]]);
});
