/** Rundowns guarded where they meet the rest: the live item's timer, the rundown cap under races, the stream budget. */
import assert from "node:assert/strict";
import { setup } from "./helpers.ts";

type S = Awaited<ReturnType<typeof setup>>;
const talk = (title: string, duration: number) => ({ type: "countdown", title, duration });

async function rundown(s: S, body: Record<string, unknown>) {
  const r = await s.call("POST", "/api/v1/rundowns", { body });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return {
    id: r.body.rundown_id as string,
    ids: r.body.items.map((i: { timer_id: string }) => i.timer_id) as string[],
  };
}

Deno.test("DELETE /timers/{id} of a running rundown's live item is 409 naming the rundown; its other items may go", async () => {
  const s = await setup();
  try {
    const existing = await s.create(talk("Keynote", 300));
    const { id, ids } = await rundown(s, {
      items: [{ timer_id: existing.timer_id }, talk("Two", 300), talk("Three", 300), talk("Four", 300)],
    });
    const act = (action: string) => s.call("POST", `/api/v1/rundowns/${id}/actions/${action}`);
    // Not started yet: the cued item is no live item.
    assert.equal((await s.call("DELETE", `/api/v1/timers/${ids[3]}`)).status, 200);
    assert.equal((await act("start")).status, 200);
    const refused = await s.call("DELETE", `/api/v1/timers/${ids[0]}`);
    assert.equal(refused.status, 409, JSON.stringify(refused.body));
    assert.equal(refused.body.error.code, 409);
    assert.match(refused.body.error.message, new RegExp(`live item of rundown ${id}`));
    assert.match(refused.body.error.message, /stop the rundown or move it on/);
    const live = await s.call("GET", `/api/v1/timers/${ids[0]}`);
    assert.equal(live.status, 200, "the live item's timer stays");
    assert.equal(live.body.state, "running");
    // An item that is not live goes (the show skips it), and once the show moved on, the former live one too.
    assert.equal((await s.call("DELETE", `/api/v1/timers/${ids[2]}`)).status, 200);
    assert.equal((await act("next")).status, 200);
    assert.equal((await s.call("DELETE", `/api/v1/timers/${ids[0]}`)).status, 200);
    assert.equal((await s.call("DELETE", `/api/v1/timers/${ids[1]}`)).status, 409, "item 1 is live now");
    // A stopped show holds no live item.
    assert.equal((await act("stop")).status, 200);
    assert.equal((await s.call("DELETE", `/api/v1/timers/${ids[1]}`)).status, 200);
  } finally {
    await s.close();
  }
});

Deno.test("a timer that left the rundown, or whose rundown was deleted while running, is deleted as any timer", async () => {
  const s = await setup();
  try {
    const a = await s.create(talk("A", 300));
    const b = await s.create(talk("B", 300));
    const show = await rundown(s, { items: [{ timer_id: a.timer_id }, talk("Made", 300)] });
    assert.equal((await s.call("POST", `/api/v1/rundowns/${show.id}/actions/start`)).status, 200);
    // Deleting the running rundown deletes the timers made with it (the live one included); existing ones stay.
    assert.equal((await s.call("DELETE", `/api/v1/rundowns/${show.id}`)).status, 200);
    assert.equal((await s.call("GET", `/api/v1/timers/${show.ids[1]}`)).status, 404);
    assert.equal((await s.call("GET", `/api/v1/timers/${a.timer_id}`)).body.state, "running");
    assert.equal((await s.call("DELETE", `/api/v1/timers/${a.timer_id}`)).status, 200, "no rundown holds it now");
    // A live item taken out of the list by PATCH (after the show stopped) is no item any more.
    const other = await rundown(s, { items: [{ timer_id: b.timer_id }, talk("C", 300)] });
    await s.call("POST", `/api/v1/rundowns/${other.id}/actions/start`);
    assert.equal((await s.call("DELETE", `/api/v1/timers/${b.timer_id}`)).status, 409);
    await s.call("POST", `/api/v1/rundowns/${other.id}/actions/stop`);
    const patched = await s.call("PATCH", `/api/v1/rundowns/${other.id}`, {
      body: { items: [{ timer_id: other.ids[1] }] },
    });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    await s.call("POST", `/api/v1/rundowns/${other.id}/actions/start`);
    assert.equal((await s.call("DELETE", `/api/v1/timers/${b.timer_id}`)).status, 200);
  } finally {
    await s.close();
  }
});
