/** Rundowns guarded where they meet the rest: the live item's timer, the rundown cap under races, the stream budget. */
import assert from "node:assert/strict";
import { DEFAULT_PLANS } from "../config.ts";
import { REMOTE_KV_LIMITS } from "../lib/kv/batch.ts";
import { setup } from "./helpers.ts";
import { rundown, talk } from "./rundown_helpers.ts";

type S = Awaited<ReturnType<typeof setup>>;

/** A pro plan storing `timers` timers (so as many rundowns), with roomy request limits. */
function proWith(timers: number) {
  const plans = structuredClone(DEFAULT_PLANS);
  plans.pro = { ...plans.pro, timers, per_minute: 100_000, per_day: null };
  return plans;
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

Deno.test("a show moving onto the timer while it is being deleted is seen: the delete, decided before, is 409", async () => {
  const s = await setup();
  try {
    const { id, ids } = await rundown(s, { items: [talk("One", 300), talk("Two", 300)] });
    assert.equal((await s.call("POST", `/api/v1/rundowns/${id}/actions/start`)).status, 200);
    // Between the delete's read of the rundown and its commit, the operator cues item 1 (its timer unchanged).
    const getChecked = s.store.rundowns.getChecked.bind(s.store.rundowns);
    let moved = false;
    s.store.rundowns.getChecked = async (rid) => {
      const read = await getChecked(rid);
      if (!moved) {
        moved = true;
        const goto = await s.call("POST", `/api/v1/rundowns/${id}/actions/goto?index=1`);
        assert.equal(goto.status, 200, JSON.stringify(goto.body));
      }
      return read;
    };
    const r = await s.call("DELETE", `/api/v1/timers/${ids[1]}`);
    assert.ok(moved);
    assert.equal(r.status, 409, JSON.stringify(r.body));
    assert.equal((await s.call("GET", `/api/v1/timers/${ids[1]}`)).status, 200, "the now live item's timer stays");
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

Deno.test("creates racing at the rundown cap: the account ends with exactly the cap, the others 403", async () => {
  const s = await setup({ config: { plans: proWith(4) } });
  try {
    // Two rundowns whose timers were deleted: the timers' own limit leaves room, the rundowns' does not.
    for (const title of ["A", "B"]) {
      const { ids } = await rundown(s, { title, items: [talk(title, 60)] });
      assert.equal((await s.call("DELETE", `/api/v1/timers/${ids[0]}`)).status, 200);
    }
    const answers = await Promise.all(
      ["C", "D", "E", "F", "G", "H"].map((title) =>
        s.call("POST", "/api/v1/rundowns", { body: { title, items: [talk(title, 60)] } })
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    assert.deepEqual(statuses, [201, 201, 403, 403, 403, 403], JSON.stringify(answers.map((a) => a.body)));
    for (const a of answers.filter((a) => a.status === 403)) {
      assert.match(a.body.error.message, /at most 4 rundowns/);
    }
    const listed = (await s.call("GET", "/api/v1/rundowns")).body.rundowns;
    assert.equal(listed.length, 4);
    const timers = (await s.call("GET", "/api/v1/timers")).body.timers;
    assert.equal(timers.length, 2, "a refused create leaves no timer behind");
  } finally {
    await s.close();
  }
});

Deno.test("over KV Connect's 10 checks (a rundown written in steps) the cap holds too when creates race", async () => {
  const s = await setup({ config: { plans: proWith(21) } });
  try {
    for (const store of [s.store.rundowns, s.store.timers]) {
      Object.defineProperty(store, "limits", { get: () => REMOTE_KV_LIMITS });
    }
    // 20 rundowns whose timers were deleted, and 20 timers: two shows of 10 existing timers each want the last place.
    for (let i = 0; i < 20; i++) {
      const { ids } = await rundown(s, { items: [talk(`R${i}`, 60)] });
      assert.equal((await s.call("DELETE", `/api/v1/timers/${ids[0]}`)).status, 200);
    }
    const timers: string[] = [];
    for (let i = 0; i < 20; i++) timers.push((await s.create(talk(`T${i}`, 60))).timer_id);
    const answers = await Promise.all([0, 10].map((from) =>
      s.call("POST", "/api/v1/rundowns", {
        body: { items: timers.slice(from, from + 10).map((timer_id) => ({ timer_id })) },
      })
    ));
    assert.deepEqual(answers.map((a) => a.status).sort(), [201, 403], JSON.stringify(answers.map((a) => a.body)));
    assert.match(answers.find((a) => a.status === 403)!.body.error.message, /at most 21 rundowns/);
    assert.equal((await s.call("GET", "/api/v1/rundowns?limit=100")).body.rundowns.length, 21);
    // The refused one's timers may join another show: its membership marks were only hints.
    const loser = answers.findIndex((a) => a.status === 403);
    const list = (await s.call("GET", "/api/v1/rundowns?limit=100")).body.rundowns;
    assert.equal((await s.call("DELETE", `/api/v1/rundowns/${list[list.length - 1].rundown_id}`)).status, 200);
    const again = await s.call("POST", "/api/v1/rundowns", {
      body: { items: timers.slice(loser * 10, loser * 10 + 10).map((timer_id) => ({ timer_id })) },
    });
    assert.equal(again.status, 201, JSON.stringify(again.body));
  } finally {
    await s.close();
  }
});
Deno.test("one address has one budget across /live/:id and /live/r/:id: holding it on one kind, the other is 429", async () => {
  const s = await setup({ config: { liveStreamsPerIp: 2, trustProxyHops: 1 } });
  const open: Response[] = [];
  const stream = async (path: string, ip = "203.0.113.9") => {
    const res = await s.app.app.request(`http://timers.test${path}`, { headers: { "x-forwarded-for": ip } });
    open.push(res);
    return res;
  };
  try {
    const { id, ids } = await rundown(s, { items: [talk("One", 60)] });
    const viewer = `/live/${ids[0]}`, stage = `/live/r/${id}`;
    assert.equal((await stream(viewer)).status, 200);
    assert.equal((await stream(viewer)).status, 200);
    const refused = await stream(stage);
    assert.equal(refused.status, 429);
    assert.match((await refused.json()).error.message, /at most 2 live streams/);
    assert.ok(refused.headers.get("retry-after"));
    assert.equal((await stream(stage, "198.51.100.4")).status, 200, "another address has its own budget");
    // The other way round: a closed viewer stream frees a place the stage takes; then the viewer is refused.
    await open[0].body!.cancel();
    assert.equal((await stream(stage)).status, 200);
    assert.equal((await stream(viewer)).status, 429);
  } finally {
    await Promise.all(open.map((r) => r.body?.cancel().catch(() => {})));
    await s.close();
  }
});
