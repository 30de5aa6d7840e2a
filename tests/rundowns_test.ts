/** Rundowns: model and API, manual actions, validation and limits, on the injected clock. */
import assert from "node:assert/strict";
import { key } from "../lib/kv/keys.ts";
import { setup, T0 } from "./helpers.ts";
import { talk } from "./rundown_helpers.ts";

async function rundown(s: Awaited<ReturnType<typeof setup>>, body: Record<string, unknown>) {
  const r = await s.call("POST", "/api/v1/rundowns", { body });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return r.body;
}

Deno.test("a rundown is created with new and existing timers, read, listed and paged", async () => {
  const s = await setup();
  try {
    const existing = await s.create(talk("Keynote", 600));
    const r = await rundown(s, {
      title: "Morning",
      items: [{ timer_id: existing.timer_id }, talk("Talk 2", 300), {
        type: "interval",
        work: 20,
        rest: 10,
        rounds: 2,
      }],
    });
    assert.match(r.rundown_id, /^rdn_/);
    assert.equal(r.mode, "manual");
    assert.equal(r.state, "idle");
    assert.equal(r.current, 0);
    assert.equal(r.offset_seconds, 0);
    assert.equal(r.stage_url, `http://timers.test/r/${r.rundown_id}`);
    assert.equal(r.agenda_url, `http://timers.test/r/${r.rundown_id}/agenda`);
    assert.match(r.control_url, new RegExp(`^http://timers.test/r/${r.rundown_id}/control#tct_`));
    assert.deepEqual(r.items.map((i: { title: string }) => i.title), ["Keynote", "Talk 2", null]);
    assert.deepEqual(r.items.map((i: { created_with_rundown: boolean }) => i.created_with_rundown), [
      false,
      true,
      true,
    ]);
    // Planned from now before the show starts: 0, +600 s, +900 s.
    assert.deepEqual(r.items.map((i: { planned_start: string }) => Date.parse(i.planned_start) - T0), [
      0,
      600_000,
      900_000,
    ]);
    const got = await s.call("GET", `/api/v1/rundowns/${r.rundown_id}`);
    assert.equal(got.status, 200);
    assert.equal(got.body.control_url, undefined);
    assert.deepEqual(got.body.items, r.items);
    // The created timers are the account's timers like any other.
    const t2 = await s.call("GET", `/api/v1/timers/${r.items[1].timer_id}`);
    assert.equal(t2.body.title, "Talk 2");

    s.clock.advance(1000); // listed newest first, by creation time
    await rundown(s, { title: "Afternoon", items: [talk("A", 60)] });
    const page1 = await s.call("GET", "/api/v1/rundowns?limit=1");
    assert.equal(page1.status, 200);
    assert.equal(page1.body.rundowns.length, 1);
    assert.equal(page1.body.rundowns[0].title, "Afternoon");
    const page2 = await s.call("GET", `/api/v1/rundowns?limit=1&cursor=${page1.body.next_cursor}`);
    assert.equal(page2.body.rundowns[0].title, "Morning");
    assert.equal(page2.body.next_cursor, null);
    const bad = await s.call("GET", `/api/v1/rundowns?cursor=t.abc`);
    assert.equal(bad.status, 400);
    // Another account sees none of it.
    assert.equal((await s.call("GET", `/api/v1/rundowns/${r.rundown_id}`, { key: s.other.apiKey })).status, 404);
    assert.equal((await s.call("GET", "/api/v1/rundowns", { key: s.other.apiKey })).body.rundowns.length, 0);
  } finally {
    await s.close();
  }
});

Deno.test("validation answers 422 naming the field, items by their place", async () => {
  const s = await setup();
  try {
    const cases: [unknown, string][] = [
      [{ items: [] }, "items"],
      [{ items: [talk("ok", 60), { type: "countdown", duration: 0 }] }, "items[1].duration"],
      [{ items: [{ type: "countdown" }] }, "items[0].duration"],
      [{ items: [{ type: "event", target_date: "2027-01-01T00:00:00Z" }] }, "items[0].type"],
      [{ items: [{ timer_id: "tmr_0000000000000000" }] }, "items[0].timer_id"],
      [{ items: [talk("ok", 60)], mode: "chained" }, "mode"],
      [{ items: [talk("ok", 60)], colour: "red" }, "colour"],
      [{ items: Array.from({ length: 101 }, () => talk("x", 60)) }, "items"],
      [{ items: [talk("ok", 60)], webhook_url: "ftp://example.com/" }, "webhook_url"],
    ];
    for (const [body, field] of cases) {
      const r = await s.call("POST", "/api/v1/rundowns", { body });
      assert.equal(r.status, 422, `${JSON.stringify(body).slice(0, 80)}: ${JSON.stringify(r.body)}`);
      assert.equal(r.body.error.field, field, JSON.stringify(r.body));
    }
    const other = await s.create({ type: "countdown", duration: 60 }, s.other.apiKey);
    const r = await s.call("POST", "/api/v1/rundowns", { body: { items: [{ timer_id: other.timer_id }] } });
    assert.equal(r.status, 422);
    assert.equal(r.body.error.field, "items[0].timer_id");
    // A timer is an item of one rundown at a time.
    const mine = await s.create(talk("mine", 60));
    await rundown(s, { items: [{ timer_id: mine.timer_id }] });
    const twice = await s.call("POST", "/api/v1/rundowns", { body: { items: [{ timer_id: mine.timer_id }] } });
    assert.equal(twice.status, 409);
    assert.equal(twice.body.error.field, "items[0].timer_id");
    // Nothing was created by the refused requests: only the two timers above and the accepted rundown.
    assert.equal((await s.call("GET", "/api/v1/timers")).body.timers.length, 1);
    assert.equal((await s.call("GET", "/api/v1/rundowns/rdn_short")).status, 404);
    assert.equal((await s.call("GET", "/api/v1/rundowns", { key: null })).status, 401);
    assert.equal((await s.call("GET", "/api/v1/rundowns", { key: s.free.apiKey })).status, 403);
  } finally {
    await s.close();
  }
});

Deno.test("manual actions: start, next, previous, goto cues, stop, reset; 409 where not allowed", async () => {
  const s = await setup();
  try {
    const r = await rundown(s, { items: [talk("One", 300), talk("Two", 300), talk("Three", 300)] });
    const id = r.rundown_id;
    const ids = r.items.map((i: { timer_id: string }) => i.timer_id);
    const state = (action: string, extra: Record<string, unknown> = {}) =>
      s.call("PATCH", `/api/v1/rundowns/${id}/state`, { body: { action, ...extra } });
    const timer = async (n: number) => (await s.call("GET", `/api/v1/timers/${ids[n]}`)).body;

    assert.equal((await state("stop")).status, 409);
    assert.equal((await state("previous")).status, 409);
    let a = await state("start");
    assert.equal(a.status, 200);
    assert.equal(a.body.state, "running");
    assert.equal((await timer(0)).state, "running");
    assert.equal((await state("start")).status, 409);

    s.clock.advance(360_000); // item 1 is 60 s over its 300: it completed at 300 s
    a = await state("next");
    assert.equal(a.body.current, 1);
    assert.equal((await timer(1)).state, "running");
    assert.equal(Date.parse((await timer(1)).started_at), T0 + 360_000);
    // Running 60 s late: item 2 ends at 660 s against a plan of 600 s; item 3 expected then.
    assert.equal(a.body.offset_seconds, 60);
    assert.equal(Date.parse(a.body.items[2].expected_start) - T0, 660_000);
    assert.equal(Date.parse(a.body.items[2].planned_start) - T0, 600_000);

    s.clock.advance(10_000);
    a = await state("previous");
    assert.equal(a.body.current, 0);
    assert.equal((await timer(1)).state, "stopped");
    assert.equal((await timer(0)).state, "running");

    a = await s.call("POST", `/api/v1/rundowns/${id}/actions/goto?index=2`);
    assert.equal(a.status, 200, JSON.stringify(a.body));
    assert.equal(a.body.current, 2);
    assert.equal((await timer(0)).state, "stopped");
    assert.equal((await timer(2)).state, "idle", "goto cues without starting");
    assert.equal((await state("next")).status, 409, "next at the last item");
    assert.equal((await state("goto", { index: 3 })).body.error.field, "index");
    assert.equal((await state("goto")).status, 422);
    assert.equal((await s.call("POST", `/api/v1/rundowns/${id}/actions/next?index=1`)).status, 422);
    assert.equal((await s.call("POST", `/api/v1/rundowns/${id}/actions/explode`)).status, 404);
    a = await s.call("POST", `/api/v1/rundowns/${id}/actions/start`);
    assert.equal((await timer(2)).state, "running");
    a = await state("stop");
    assert.equal(a.body.state, "stopped");
    assert.equal((await timer(2)).state, "stopped");
    a = await state("reset");
    assert.equal(a.body.state, "idle");
    assert.equal(a.body.current, 0);
    for (const n of [0, 1, 2]) assert.equal((await timer(n)).state, "idle");
  } finally {
    await s.close();
  }
});

Deno.test("the rundown's control token reads and acts on it, and on nothing else", async () => {
  const s = await setup();
  try {
    const r = await rundown(s, { items: [talk("One", 300), talk("Two", 300)] });
    const token = r.control_url.split("#")[1];
    const got = await s.call("GET", `/api/v1/rundowns/${r.rundown_id}`, { key: token });
    assert.equal(got.status, 200);
    assert.equal(got.body.webhook_url, undefined);
    const a = await s.call("POST", `/api/v1/rundowns/${r.rundown_id}/actions/start`, { key: token });
    assert.equal(a.status, 200);
    assert.equal(a.body.state, "running");
    assert.equal((await s.call("DELETE", `/api/v1/rundowns/${r.rundown_id}`, { key: token })).status, 403);
    const other = await rundown(s, { items: [talk("X", 60)] });
    assert.equal((await s.call("GET", `/api/v1/rundowns/${other.rundown_id}`, { key: token })).status, 401);
    assert.equal((await s.call("GET", `/api/v1/timers/${r.items[0].timer_id}`, { key: token })).status, 401);
  } finally {
    await s.close();
  }
});

Deno.test("PATCH reorders, adds and removes items (not a running one); DELETE takes only the timers it created", async () => {
  const s = await setup();
  try {
    const existing = await s.create(talk("Existing", 120));
    const r = await rundown(s, { title: "Show", items: [talk("One", 300), { timer_id: existing.timer_id }] });
    const [one, ex] = r.items.map((i: { timer_id: string }) => i.timer_id);
    await s.call("PATCH", `/api/v1/rundowns/${r.rundown_id}/state`, { body: { action: "start" } });
    const refused = await s.call("PATCH", `/api/v1/rundowns/${r.rundown_id}`, { body: { items: [{ timer_id: ex }] } });
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error.field, "items");
    const p = await s.call("PATCH", `/api/v1/rundowns/${r.rundown_id}`, {
      body: { title: "Show 2", mode: "linked", items: [{ timer_id: ex }, talk("New", 60), { timer_id: one }] },
    });
    assert.equal(p.status, 200, JSON.stringify(p.body));
    assert.equal(p.body.title, "Show 2");
    assert.equal(p.body.mode, "linked");
    assert.deepEqual(p.body.items.map((i: { title: string }) => i.title), ["Existing", "New", "One"]);
    assert.equal(p.body.current, 2, "the live item stays current where it moved");
    const removed = await s.call("PATCH", `/api/v1/rundowns/${r.rundown_id}`, {
      body: { items: [{ timer_id: one }] },
    });
    assert.equal(removed.status, 200);
    assert.equal(removed.body.current, 0);
    // The created item removed is deleted; the existing one stays, free to join another rundown.
    assert.equal((await s.call("GET", `/api/v1/timers/${p.body.items[1].timer_id}`)).status, 404);
    assert.equal((await s.call("GET", `/api/v1/timers/${ex}`)).status, 200);
    await rundown(s, { items: [{ timer_id: ex }] });

    const d = await s.call("DELETE", `/api/v1/rundowns/${r.rundown_id}`);
    assert.deepEqual(d.body, { deleted: true, rundown_id: r.rundown_id });
    assert.equal((await s.call("GET", `/api/v1/rundowns/${r.rundown_id}`)).status, 404);
    assert.equal((await s.call("GET", `/api/v1/timers/${one}`)).status, 404);
    assert.equal((await s.call("GET", `/api/v1/timers/${ex}`)).status, 200);
    // An existing timer's membership goes with the rundown.
    const kept = await s.create(talk("Kept", 60));
    const r2 = await rundown(s, { items: [{ timer_id: kept.timer_id }] });
    const mark = async () =>
      (await s.kv.get<{ rundown_id?: string | null }>(key.timer(kept.timer_id))).value!.rundown_id;
    assert.equal(await mark(), r2.rundown_id);
    await s.call("DELETE", `/api/v1/rundowns/${r2.rundown_id}`);
    assert.equal(await mark(), null);
  } finally {
    await s.close();
  }
});

Deno.test("the OpenAPI document describes the rundown operations", async () => {
  const s = await setup();
  try {
    const doc = (await s.call("GET", "/api/v1/openapi.json", { key: null })).body;
    const ops = Object.values(doc.paths as Record<string, Record<string, { operationId: string }>>)
      .flatMap((p) => Object.values(p).map((o) => o.operationId));
    for (
      const id of [
        "createRundown",
        "listRundowns",
        "getRundown",
        "updateRundown",
        "deleteRundown",
        "changeRundownState",
        "runRundownAction",
      ]
    ) {
      assert.ok(ops.includes(id), id);
    }
  } finally {
    await s.close();
  }
});

Deno.test("the stage page renders the live item and the next title as text; unknown rundowns are 404", async () => {
  const s = await setup();
  try {
    const r = await rundown(s, {
      title: "Show",
      webhook_url: "http://127.0.0.1:9999/secret-hook",
      items: [talk("</script><script>alert(1)</script>", 60), talk("Second & last", 60)],
    });
    const res = await s.app.app.request(`http://timers.test/r/${r.rundown_id}`);
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.ok(html.includes('data-island="Stage"'));
    assert.ok(!html.includes("<script>alert(1)</script>"), "titles are escaped");
    assert.ok(html.includes("Next: Second &amp; last"));
    assert.ok(!html.includes("secret-hook") && !html.includes("tct_"), "no webhook URL or token on a public page");
    assert.equal((await s.app.app.request("http://timers.test/r/rdn_0000000000000000")).status, 404);
    const live = await s.app.app.request("http://timers.test/live/r/rdn_0000000000000000");
    assert.equal(live.status, 404);
    await live.body?.cancel();
  } finally {
    await s.close();
  }
});

Deno.test("the agenda lists planned and expected starts and marks the live item; the control page is never framed", async () => {
  const s = await setup();
  try {
    const r = await rundown(s, { title: "Day", items: [talk("Alpha", 600), talk("Beta <b>", 300)] });
    await s.call("POST", `/api/v1/rundowns/${r.rundown_id}/actions/start`);
    s.clock.advance(660_000); // Alpha ran 60 s over (the manual rundown waits for next)
    const res = await s.app.app.request(`http://timers.test/r/${r.rundown_id}/agenda?timezone=UTC&lang=en`);
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.ok(html.includes("Beta &lt;b>") && !html.includes("Beta <b>"), "titles are text");
    assert.match(html, /<tr data-live="1" aria-current="step"><td>1<\/td><td dir="auto">Alpha<\/td><td>12:00<\/td>/);
    // Beta planned at 12:10, expected at 12:11 (Alpha is over by 60 s and still the live item).
    assert.match(html, /Beta &lt;b><\/td><td>12:10<\/td><td>12:11<\/td>/);
    assert.ok(html.includes('data-offset="60"'));
    const control = await s.app.app.request(`http://timers.test/r/${r.rundown_id}/control`);
    assert.equal(control.status, 200);
    assert.match(control.headers.get("content-security-policy")!, /frame-ancestors 'none'/);
    assert.equal(control.headers.get("referrer-policy"), "no-referrer");
    const page = await control.text();
    assert.ok(page.includes('data-island="RundownControl"'));
    assert.ok(!page.includes("tct_"));
    assert.equal((await s.app.app.request(`http://timers.test/r/rdn_0000000000000000/agenda`)).status, 404);
  } finally {
    await s.close();
  }
});

Deno.test("two operators pressing next at once move the show one item: one 200, one 409", async () => {
  const s = await setup();
  try {
    const r = await rundown(s, { items: [talk("One", 300), talk("Two", 300), talk("Three", 300)] });
    await s.call("POST", `/api/v1/rundowns/${r.rundown_id}/actions/start`);
    const both = await Promise.all([1, 2].map(() => s.call("POST", `/api/v1/rundowns/${r.rundown_id}/actions/next`)));
    assert.deepEqual(both.map((x) => x.status).sort(), [200, 409], JSON.stringify(both.map((x) => x.body)));
    const read = (await s.call("GET", `/api/v1/rundowns/${r.rundown_id}`)).body;
    assert.equal(read.current, 1);
    assert.deepEqual(read.items.map((i: { state: string }) => i.state), ["stopped", "running", "idle"]);
  } finally {
    await s.close();
  }
});
