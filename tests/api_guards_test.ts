/**
 * Findings of a security test of the running service, through the real app: request bodies
 * without a limit, made-up control tokens past the gate, answers browsers could sniff.
 */
import assert from "node:assert/strict";
import { setup } from "./helpers.ts";
import { rundown, talk } from "./rundown_helpers.ts";

const WRITES = ["post", "put", "patch", "delete"];

/** A JSON body of `bytes` bytes that parses: `{"text":"hi"` + spaces + `}`. */
const oversized = (bytes: number) => `{"text":"hi"${" ".repeat(bytes - 14)}}`;

Deno.test("every route of the OpenAPI document that takes a request answers an oversized body with 413", async () => {
  const s = await setup();
  try {
    const doc = (await s.call("GET", "/api/v1/openapi.json")).body;
    const routes: string[] = [];
    type Op = { requestBody?: unknown; responses: Record<string, unknown> };
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, Op>>)) {
      for (const method of Object.keys(ops).filter((m) => WRITES.includes(m))) {
        if (ops[method].requestBody) assert.ok("413" in ops[method].responses, `${method} ${path} documents 413`);
        // Unknown ids: the limit answers before any lookup. Actions need a real name to route.
        const concrete = path.replace("{action}", "start").replace(/\{[a-z_]+\}/g, "x_unknown");
        routes.push(`${method.toUpperCase()} ${concrete}`);
        const raw = oversized(20 * 1024);
        const r = await s.call(method.toUpperCase(), `/api/v1${concrete}`, { raw });
        assert.equal(r.status, 413, `${method} ${path}: ${JSON.stringify(r.body)}`);
        assert.match(r.body.error.message, /at most 16 KiB/);
        // Not JSON: refused for its type where a JSON body is due, else for its size; never read whole.
        const plain = await s.call(method.toUpperCase(), `/api/v1${concrete}`, {
          raw,
          headers: { "content-type": "text/plain" },
        });
        assert.ok([400, 413].includes(plain.status), `${method} ${path} as text/plain: ${JSON.stringify(plain.body)}`);
      }
    }
    // The walk covered the routes of the finding (and the document lists them).
    for (const route of ["PUT /rundowns/x_unknown/message", "PUT /rundowns/x_unknown/item/message"]) {
      assert.ok(routes.includes(route), route);
    }
    assert.ok(routes.length >= 25, `${routes.length} routes`);
  } finally {
    await s.close();
  }
});

Deno.test("a 30 MB message to a rundown is refused with 413, declared or streamed, before it is read", async () => {
  const s = await setup();
  try {
    const r = await rundown(s, { title: "Show", items: [talk("Intro", 60)] });
    await s.call("POST", `/api/v1/rundowns/${r.id}/actions/next`);
    const body = oversized(30 * 1024 * 1024);
    for (const path of [`/api/v1/rundowns/${r.id}/message`, `/api/v1/rundowns/${r.id}/item/message`]) {
      const streamed = await s.call("PUT", path, { raw: body });
      assert.equal(streamed.status, 413, path);
      const declared = await s.call("PUT", path, { raw: body, headers: { "content-length": String(body.length) } });
      assert.equal(declared.status, 413, path);
      // A message of the right size still works (the control case).
      const fits = await s.call("PUT", path, { body: { text: "hi" } });
      assert.equal(fits.status, 200, `${path}: ${JSON.stringify(fits.body)}`);
    }
  } finally {
    await s.close();
  }
});

Deno.test("a bodiless action stays callable with no body, an empty body or a small one", async () => {
  const s = await setup();
  try {
    const t = await s.create({ type: "countdown", duration: 60 });
    const path = `/api/v1/timers/${t.timer_id}/actions`;
    assert.equal((await s.call("POST", `${path}/start`)).status, 200);
    const empty = await s.call("POST", `${path}/pause`, {
      headers: { "content-type": "application/x-www-form-urlencoded", "content-length": "0" },
    });
    assert.equal(empty.status, 200, JSON.stringify(empty.body));
    assert.equal((await s.call("POST", `${path}/resume`, { body: {} })).status, 200);
    // What a browser's bodiless DELETE with a JSON Content-Type is on the server: an empty stream.
    const cleared = await s.app.app.request(`http://timers.test/api/v1/timers/${t.timer_id}/message`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${s.pro.apiKey}`, "content-type": "application/json" },
      body: new ReadableStream({ start: (c) => c.close() }),
    });
    assert.equal(cleared.status, 200, await cleared.clone().text());
    await cleared.body?.cancel();
    // White space with a JSON Content-Type is no body either, where none is needed.
    const spaced = await s.call("POST", `${path}/pause`, {
      raw: "\n",
      headers: { "content-type": "application/json" },
    });
    assert.equal(spaced.status, 200, JSON.stringify(spaced.body));
    // A test send's body is optional: an empty one with a JSON Content-Type answers as none does.
    const none = await s.call("POST", `/api/v1/timers/${t.timer_id}/webhook/test`);
    const emptyTest = await s.call("POST", `/api/v1/timers/${t.timer_id}/webhook/test`, {
      raw: "",
      headers: { "content-type": "application/json" },
    });
    assert.notEqual(none.status, 400, JSON.stringify(none.body));
    assert.deepEqual([emptyTest.status, emptyTest.body.error?.message], [none.status, none.body.error?.message]);
  } finally {
    await s.close();
  }
});

Deno.test("a made-up control token gets 401 on every route beyond a timer's control, whether the id exists or not", async () => {
  const s = await setup();
  try {
    const existing = await s.create({ type: "countdown", duration: 60, webhook_url: "http://127.0.0.1:9/x" });
    const show = await rundown(s, { title: "Show", items: [talk("Intro", 60)] });
    const bogus = { key: "tct_bogus" };
    const cases: [string, string, { body?: unknown; raw?: string }?][] = [
      ["GET", "/api/v1/timers/{timer}/deliveries"],
      ["GET", "/api/v1/timers/{timer}/deliveries?limit=abc"],
      ["POST", "/api/v1/timers/{timer}/control_token"],
      ["POST", "/api/v1/rundowns/{rundown}/control_token"],
      ["POST", "/api/v1/timers/{timer}/webhook/test", { body: { unknown_field: 1 } }],
      ["POST", "/api/v1/timers/{timer}/deliveries/dlv_x/redeliver"],
      ["GET", "/api/v1/timers?limit=abc"],
      ["POST", "/api/v1/timers", { body: { type: "countdown", duration: "abc" } }],
      ["GET", "/api/v1/deliveries"],
      ["GET", "/api/v1/requests?limit=abc"],
      ["GET", "/api/v1/webhook_endpoints"],
    ];
    for (const [method, pattern, o] of cases) {
      for (const [timer, rdn] of [[existing.timer_id, show.id], ["tmr_0000000000000000", "rdn_0000000000000000"]]) {
        const path = pattern.replace("{timer}", timer).replace("{rundown}", rdn);
        const r = await s.call(method, path, { ...o, ...bogus });
        assert.equal(r.status, 401, `${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
        assert.equal(r.headers.get("www-authenticate"), 'Bearer realm="api"', path);
      }
    }
    // A real token on its own timer: what it may not do there is 403, as before; elsewhere 401.
    const token = existing.control_url.split("#")[1];
    const own = await s.call("GET", `/api/v1/timers/${existing.timer_id}/deliveries`, { key: token });
    assert.equal(own.status, 403);
    assert.equal((await s.call("GET", `/api/v1/timers/${existing.timer_id}`, { key: token })).status, 200);
    assert.equal((await s.call("GET", "/api/v1/timers", { key: token })).status, 401);
  } finally {
    await s.close();
  }
});

Deno.test("every kind of answer carries X-Content-Type-Options: nosniff", async () => {
  const s = await setup();
  try {
    const t = await s.create({ type: "countdown", duration: 60 });
    const answers = [
      await s.call("GET", "/healthz", { key: null }),
      await s.call("GET", `/api/v1/timers/${t.timer_id}`),
      await s.call("POST", "/api/v1/timers", { body: { type: "countdown", duration: 5 } }),
      await s.call("GET", "/api/v1/timers", { key: null }), // 401
      await s.call("GET", "/api/v1/timers/tmr_0000000000000000"), // 404
      await s.call("PUT", "/api/v1/timers", {}), // 405
      await s.call("POST", "/api/v1/timers", { raw: "{" }), // 400
      await s.call("GET", "/api/v1/openapi.json", { key: null }),
      await s.call("GET", "/api/v1/events", { key: null }),
      await s.call("OPTIONS", "/api/v1/timers", { key: null, headers: { "access-control-request-method": "POST" } }),
      await s.call("GET", "/no/such/page", { key: null }),
    ];
    for (const r of answers) {
      assert.equal(r.headers.get("x-content-type-options"), "nosniff", `${r.status} ${JSON.stringify(r.body)}`);
    }
    // A stream built by its handler gets it too.
    const live = await s.app.app.request(`http://timers.test/live/${t.timer_id}`);
    assert.equal(live.headers.get("x-content-type-options"), "nosniff");
    await live.body?.cancel();
  } finally {
    await s.close();
  }
});
