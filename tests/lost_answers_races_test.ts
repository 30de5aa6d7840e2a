/**
 * Lost answers (tests/lost_answers.ts) with another client's change landing before the call reads
 * again: a call whose commit landed still answers as applied, once.
 */
import assert from "node:assert/strict";
import { setup } from "./helpers.ts";
import { talk } from "./rundown_helpers.ts";
import { loseTimerChangeAnswers } from "./lost_answers.ts";

const HOOK = "http://127.0.0.1:9/hook";

/**
 * Timer-change answers lost; before the call reads again, another client deletes the rundown's
 * first item (`item.first`, set once the rundown is made): the one a goto or a stop stopped.
 */
function deletingFirstItem(s: Awaited<ReturnType<typeof setup>>) {
  const item = { first: "" };
  const lost = loseTimerChangeAnswers(s, {
    async meanwhile() {
      const r = await s.call("DELETE", `/api/v1/timers/${item.first}`);
      assert.equal(r.status, 200, JSON.stringify(r.body));
    },
  });
  return { lost, item };
}

Deno.test("a rundown goto whose answer was lost, the item it stopped deleted meanwhile, answers 200 and advances once", async () => {
  const s = await setup();
  const { lost, item } = deletingFirstItem(s);
  try {
    s.app.timers.link = undefined; // deliveries wait, pending, in the log
    const made = await s.call("POST", "/api/v1/rundowns", {
      body: { items: [talk("One", 60), talk("Two", 60), talk("Three", 60)], webhook_url: HOOK },
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const id = made.body.rundown_id as string;
    item.first = made.body.items[0].timer_id;
    assert.equal((await s.call("PATCH", `/api/v1/rundowns/${id}/state`, { body: { action: "start" } })).status, 200);
    s.clock.advance(1000);
    lost.lose = 1;
    const r = await s.call("PATCH", `/api/v1/rundowns/${id}/state`, { body: { action: "goto", index: 2 } });
    assert.equal(lost.lose, 0, "the goto's answer was lost");
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.current, 2);
    const log = await s.store.deliveries.deliveryLog(id);
    const events = log.map((e) => e.delivery).sort((a, b) => a.created_at - b.created_at).map((d) => d.payload.event);
    assert.deepEqual(events, ["rundown.started", "rundown.advanced"], "advanced once");
  } finally {
    await s.close();
  }
});

Deno.test("a rundown stop whose answer was lost, its item deleted meanwhile, answers 200", async () => {
  const s = await setup();
  const { lost, item } = deletingFirstItem(s);
  try {
    const made = await s.call("POST", "/api/v1/rundowns", { body: { items: [talk("One", 60), talk("Two", 60)] } });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const id = made.body.rundown_id as string;
    item.first = made.body.items[0].timer_id;
    assert.equal((await s.call("PATCH", `/api/v1/rundowns/${id}/state`, { body: { action: "start" } })).status, 200);
    lost.lose = 1;
    const r = await s.call("PATCH", `/api/v1/rundowns/${id}/state`, { body: { action: "stop" } });
    assert.equal(lost.lose, 0, "the stop's answer was lost");
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.state, "stopped");
  } finally {
    await s.close();
  }
});
