/**
 * A rundown's show controls on the injected clock: its message (across items, on the stage's
 * stream, no webhook), and the live item's adjust and message through the rundown's credential.
 */
import assert from "node:assert/strict";
import { key } from "../lib/kv/keys.ts";
import { receiver, setup } from "./helpers.ts";
import { talk } from "./rundown_helpers.ts";

type S = Awaited<ReturnType<typeof setup>>;

async function show(s: S, webhook_url?: string) {
  const r = await s.call("POST", "/api/v1/rundowns", {
    body: { title: "Morning", items: [talk("One", 60), talk("Two", 60)], webhook_url },
  });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return { id: r.body.rundown_id as string, token: r.body.control_url.split("#")[1] as string, items: r.body.items };
}

/** Reads the stage's stream until an `item` event satisfies `ok`; returns that event's data. */
async function stageEvent(s: S, id: string, ok: (d: Record<string, unknown>) => boolean) {
  const res = await s.app.app.request(`http://timers.test/live/r/${id}`);
  assert.equal(res.status, 200);
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buf = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error("the stage stream ended");
      buf += value;
      for (let at = buf.indexOf("\n\n"); at >= 0; at = buf.indexOf("\n\n")) {
        const frame = buf.slice(0, at);
        buf = buf.slice(at + 2);
        const data = frame.match(/^event: item\ndata: (.*)$/m)?.[1];
        if (data && ok(JSON.parse(data))) return JSON.parse(data);
      }
    }
  } finally {
    await reader.cancel();
  }
}

Deno.test("the rundown's message: set and cleared with the API key or its control token, kept across items", async () => {
  const s = await setup();
  const rx = receiver();
  try {
    const { id, token } = await show(s, rx.url);
    const put = await s.call("PUT", `/api/v1/rundowns/${id}/message`, {
      key: token,
      body: { text: "5 minutes to lunch", color: "yellow", flash: 2 },
    });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    assert.deepEqual(
      { ...put.body.message, set_at: undefined },
      { text: "5 minutes to lunch", color: "yellow", flash: 2, blackout: false, set_at: undefined },
    );
    assert.equal(put.body.message.set_at, new Date(s.clock.now()).toISOString());
    assert.equal((await s.call("GET", `/api/v1/rundowns/${id}`)).body.message.text, "5 minutes to lunch");

    // It stays up as the show moves on.
    assert.equal((await s.call("POST", `/api/v1/rundowns/${id}/actions/start`)).status, 200);
    const moved = await s.call("POST", `/api/v1/rundowns/${id}/actions/next`, { key: token });
    assert.equal(moved.body.current, 1);
    assert.equal(moved.body.message.text, "5 minutes to lunch");

    const black = await s.call("PUT", `/api/v1/rundowns/${id}/message`, { body: { blackout: true } });
    assert.equal(black.status, 200);
    assert.equal(black.body.message.blackout, true);
    const cleared = await s.call("DELETE", `/api/v1/rundowns/${id}/message`, { key: token });
    assert.equal(cleared.status, 200);
    assert.equal(cleared.body.message, null);

    // No webhook of its own: the rundown's deliveries are its two show events, nothing else.
    await rx.waitFor(2);
    assert.deepEqual(rx.received.map((x) => x.json.event).sort(), ["rundown.advanced", "rundown.started"]);
    const logged = [];
    for await (const e of s.kv.list<{ payload: { event: string } }>({ prefix: key.deliveries(id) })) {
      logged.push(e.value.payload.event);
    }
    assert.deepEqual(logged.sort(), ["rundown.advanced", "rundown.started"]);
  } finally {
    await s.close();
    await rx.close();
  }
});

Deno.test("the rundown's message is validated as a timer's is: 422 naming the field; other credentials are refused", async () => {
  const s = await setup();
  try {
    const { id } = await show(s);
    const other = await show(s);
    const refused = async (body: unknown, field: string) => {
      const r = await s.call("PUT", `/api/v1/rundowns/${id}/message`, { body });
      assert.equal(r.status, 422, JSON.stringify(body));
      assert.equal(r.body.error.field, field, JSON.stringify(r.body));
    };
    await refused({ text: "" }, "text");
    await refused({ color: "red" }, "text");
    await refused({ text: "x".repeat(201) }, "text");
    await refused({ text: "ok", color: "purple" }, "color");
    await refused({ text: "ok", flash: 99 }, "flash");
    await refused({ text: "ok", blackout: "yes" }, "blackout");
    await refused({ text: "ok", colour: "red" }, "colour");
    const wrong = await s.call("PUT", `/api/v1/rundowns/${id}/message`, { key: other.token, body: { text: "hi" } });
    assert.equal(wrong.status, 401);
    const none = await s.call("DELETE", `/api/v1/rundowns/${id}/message`, { key: null });
    assert.equal(none.status, 401);
    const stranger = await s.call("PUT", `/api/v1/rundowns/${id}/message`, {
      key: s.other.apiKey,
      body: { text: "x" },
    });
    assert.equal(stranger.status, 404);
    assert.equal((await s.call("GET", `/api/v1/rundowns/${id}`)).body.message, null);
  } finally {
    await s.close();
  }
});

Deno.test("the stage's stream carries the rundown's message as it changes", async () => {
  const s = await setup();
  try {
    const { id } = await show(s);
    const first = await stageEvent(s, id, () => true);
    assert.equal(first.message, null);
    const seen = stageEvent(s, id, (d) => (d.message as { text?: string } | null)?.text === "Doors close");
    await s.call("PUT", `/api/v1/rundowns/${id}/message`, { body: { text: "Doors close", color: "red" } });
    const got = await seen;
    assert.equal((got.message as { color: string }).color, "red");
    assert.equal((got.item as { title: string }).title, "One");
    const html = await (await s.app.app.request(`http://timers.test/r/${id}`)).text();
    assert.ok(html.includes("Doors close"), "the stage renders it from the first frame");
  } finally {
    await s.close();
  }
});

Deno.test("the live item's controls through the rundown: adjust and its own message, with the control token", async () => {
  const s = await setup();
  try {
    const { id, token, items } = await show(s);
    const early = await s.call("POST", `/api/v1/rundowns/${id}/actions/adjust?seconds=60`, { key: token });
    assert.equal(early.status, 409, "an idle item cannot be adjusted");
    assert.equal(early.body.error.field, "action");
    await s.call("POST", `/api/v1/rundowns/${id}/actions/start`, { key: token });
    const adj = await s.call("POST", `/api/v1/rundowns/${id}/actions/adjust?seconds=60`, { key: token });
    assert.equal(adj.status, 200, JSON.stringify(adj.body));
    assert.equal(adj.body.items[0].remaining_seconds, 120);
    const less = await s.call("POST", `/api/v1/rundowns/${id}/actions/adjust?seconds=-10`, { key: token });
    assert.equal(less.body.items[0].remaining_seconds, 110);
    assert.equal((await s.call("GET", `/api/v1/timers/${items[0].timer_id}`)).body.added_seconds, 50);

    for (const q of ["", "?seconds=0", "?seconds=abc"]) {
      const bad = await s.call("POST", `/api/v1/rundowns/${id}/actions/adjust${q}`, { key: token });
      assert.ok(bad.status === 422 || bad.status === 400, `${q}: ${bad.status}`);
      assert.equal(bad.body.error.field, "seconds", q);
    }
    const misplaced = await s.call("POST", `/api/v1/rundowns/${id}/actions/next?seconds=5`, { key: token });
    assert.equal(misplaced.status, 422);
    assert.equal(misplaced.body.error.field, "seconds");

    const msg = await s.call("PUT", `/api/v1/rundowns/${id}/item/message`, {
      key: token,
      body: { text: "Wrap up", color: "red" },
    });
    assert.equal(msg.status, 200, JSON.stringify(msg.body));
    // The rundown's token is known on this path too: its own budget, not the caller address's.
    assert.equal(msg.headers.get("x-ratelimit-limit"), String(s.config.plans.pro.per_minute));
    await s.app.requestLog.flush();
    const logged = (await s.call("GET", "/api/v1/requests?limit=100")).body.requests as { path: string }[];
    assert.ok(logged.some((r) => r.path === `/api/v1/rundowns/${id}/item/message`), "logged for the account");
    assert.equal((await s.call("GET", `/api/v1/timers/${items[0].timer_id}`)).body.message.text, "Wrap up");
    const bad = await s.call("PUT", `/api/v1/rundowns/${id}/item/message`, {
      key: token,
      body: { text: "x", flash: -1 },
    });
    assert.equal(bad.status, 422);
    assert.equal(bad.body.error.field, "flash");

    // The item's message goes with its item: the next one starts without it.
    await s.call("POST", `/api/v1/rundowns/${id}/actions/next`, { key: token });
    assert.equal((await s.call("GET", `/api/v1/timers/${items[1].timer_id}`)).body.message, null);
    await s.call("PUT", `/api/v1/rundowns/${id}/item/message`, { key: token, body: { text: "Two's" } });
    assert.equal((await s.call("GET", `/api/v1/timers/${items[1].timer_id}`)).body.message.text, "Two's");
    const gone = await s.call("DELETE", `/api/v1/rundowns/${id}/item/message`, { key: token });
    assert.equal(gone.status, 200);
    assert.equal((await s.call("GET", `/api/v1/timers/${items[1].timer_id}`)).body.message, null);
    assert.equal((await s.call("GET", `/api/v1/timers/${items[0].timer_id}`)).body.message.text, "Wrap up");
  } finally {
    await s.close();
  }
});

Deno.test("the stage, agenda and control pages speak lang= or the browser's language", async () => {
  const s = await setup();
  try {
    const { id } = await show(s);
    const page = async (path: string, headers: Record<string, string> = {}) => {
      const res = await s.app.app.request(`http://timers.test${path}`, { headers });
      assert.equal(res.status, 200, path);
      return await res.text();
    };
    assert.match(await page(`/r/${id}?lang=fr`), /Suivant: Two/);
    assert.match(await page(`/r/${id}`, { "accept-language": "de-CH,de;q=0.9" }), /Als Nächstes: Two/);
    assert.match(await page(`/r/${id}`), /Next: Two/);
    const agenda = await page(`/r/${id}/agenda?lang=ja`);
    assert.match(agenda, /定刻どおり/);
    assert.match(agenda, /<th>予定<\/th>/);
    assert.match(agenda, /<html lang="ja"/);
    const control = await page(`/r/${id}/control`, { "accept-language": "es" });
    assert.match(control, /Ir a/);
    assert.match(control, /Mensaje solo para este elemento/);
    assert.match(await page(`/r/${id}/control?lang=ko`), /진행표|현재 항목/);
  } finally {
    await s.close();
  }
});

Deno.test("/widget?rundown=<id> embeds the stage under the widget's parameters; unknown rundowns are 404", async () => {
  const s = await setup();
  try {
    const { id } = await show(s);
    const res = await s.app.app.request(
      `http://timers.test/widget?rundown=${id}&theme=light&primary_color=FF0000&show_brand=0&lang=de&hide=progress`,
    );
    assert.equal(res.status, 200);
    assert.doesNotMatch(res.headers.get("content-security-policy")!, /frame-ancestors/);
    const html = await res.text();
    assert.match(html, /data-island="Stage"/);
    assert.match(html, /data-theme="light"/);
    assert.match(html, /--primary:#FF0000/);
    assert.match(html, /data-hide="progress"/);
    assert.match(html, /Als Nächstes: Two/);
    assert.match(html, /body--widget/);
    assert.doesNotMatch(html, /class="[^"]*brand/, "a paid plan's show_brand=0 is honoured");
    for (const bad of ["rdn_0000000000000000", "nope"]) {
      const r = await s.app.app.request(`http://timers.test/widget?rundown=${bad}`);
      assert.equal(r.status, 404);
      await r.body?.cancel();
    }
  } finally {
    await s.close();
  }
});
