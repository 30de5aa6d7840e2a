/**
 * The SDK in sdk/: its generated types and built files are current, its verifyWebhook holds to the
 * README's test vector, rotation and the timestamp tolerance, and the packed package works in Node
 * against the real service on 127.0.0.1 (create, start, read, list, a verified delivery, delete).
 */
import assert from "node:assert/strict";
import { verifyWebhook, type WebhookPayload } from "../sdk/src/webhooks.ts";
import { createClient } from "../sdk/src/client.ts";
import { receiver, setup } from "./helpers.ts";
import { verifyWebhook as fromMod } from "../mod.ts";
import { compile, schemaSource } from "../scripts/sdk.ts";
import { signDelivery } from "../lib/webhooks/signing.ts";
import { VECTOR } from "./webhook_vector.ts";

const SDK = new URL("../sdk/", import.meta.url);

Deno.test("the SDK's generated types and built files are current (deno task sdk:types, sdk:build)", async () => {
  const committed = await Deno.readTextFile(new URL("src/schema.ts", SDK));
  assert.ok(committed === await schemaSource(), "sdk/src/schema.ts is stale: run deno task sdk:types");
  for (const [name, text] of await compile()) {
    const built = await Deno.readTextFile(new URL(`dist/${name}`, SDK)).catch(() => "");
    assert.ok(built === text, `sdk/dist/${name} is stale: run deno task sdk:build`);
  }
});

Deno.test("mod.ts exports the SDK's verifyWebhook (one implementation)", () => {
  assert.equal(fromMod, verifyWebhook);
});

Deno.test("verifyWebhook: the README vector, secret lists, the timestamp tolerance on both signatures", async () => {
  const body = `${JSON.stringify(VECTOR.payload).slice(0, -1)},"signature":"${VECTOR.headers["x-service-signature"]}"}`;
  const req = { body, headers: VECTOR.headers };
  const at = VECTOR.nowMs;
  const h: Record<string, string> = req.headers;
  assert.deepEqual(await verifyWebhook(req.body, h, VECTOR.secret, { now: at }), JSON.parse(req.body));
  assert.ok(
    await verifyWebhook(req.body, new Headers(h), ["whsec_b3RoZXJvdGhlcm90aGVyb3RoZXJvdGhlcg==", VECTOR.secret], {
      now: at,
    }),
  );
  // Each signature alone verifies.
  const service = { "x-service-signature": h["x-service-signature"], "webhook-timestamp": h["webhook-timestamp"] };
  const { "x-service-signature": _, ...standard } = h;
  assert.ok(await verifyWebhook(req.body, service, [VECTOR.secret], { now: at }));
  assert.ok(await verifyWebhook(req.body, standard, [VECTOR.secret], { now: at }));
  // Replays: too old or too far ahead, through either signature, and no timestamp at all.
  for (const headers of [h, service, standard]) {
    assert.equal(await verifyWebhook(req.body, headers, VECTOR.secret, { now: at + 301_000 }), null);
    assert.equal(await verifyWebhook(req.body, headers, VECTOR.secret, { now: at - 301_000 }), null);
    assert.ok(await verifyWebhook(req.body, headers, VECTOR.secret, { now: at + 299_000 }));
    assert.ok(await verifyWebhook(req.body, headers, VECTOR.secret, { now: at + 3600_000, toleranceSeconds: 7200 }));
  }
  assert.equal(await verifyWebhook(req.body, { "x-service-signature": h["x-service-signature"] }, VECTOR.secret), null);
  // Tampering and wrong secrets.
  assert.equal(await verifyWebhook(req.body.replace('"Tea"', '"Tee"'), h, VECTOR.secret, { now: at }), null);
  assert.equal(await verifyWebhook(req.body, h, "whsec_b3RoZXJvdGhlcm90aGVyb3RoZXJvdGhlcg==", { now: at }), null);
  assert.equal(await verifyWebhook(req.body, h, [], { now: at }), null);
  // A rotation: the delivery is signed by both; a receiver holding either verifies.
  const fresh = "whsec_" + btoa("n".repeat(32));
  const both = signDelivery(VECTOR.payload as never, [fresh, VECTOR.secret], at);
  assert.ok(await verifyWebhook(both.body, both.headers, [VECTOR.secret], { now: at }));
  assert.ok(await verifyWebhook(both.body, both.headers, [fresh], { now: at }));
});

async function run(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  const out = await new Deno.Command(cmd, { args, cwd, env, stdout: "piped", stderr: "piped" }).output();
  const text = new TextDecoder().decode(out.stdout);
  if (!out.success) {
    throw new Error(`${cmd} ${args.join(" ")} failed: ${text}\n${new TextDecoder().decode(out.stderr)}`);
  }
  return text;
}

const NODE_SCRIPT = `
import http from "node:http";
import { createClient, verifyWebhook } from "timer-service-sdk";

const { BASE, KEY, SECRET } = process.env;
const received = [];
let arrived;
const delivery = new Promise((r) => (arrived = r));
const server = http.createServer((req, res) => {
  let raw = "";
  req.setEncoding("utf8");
  req.on("data", (c) => (raw += c));
  req.on("end", () => {
    received.push({ raw, headers: req.headers });
    res.end("ok");
    arrived();
  });
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const hook = "http://127.0.0.1:" + server.address().port + "/hook";

const api = createClient({ baseUrl: BASE, apiKey: KEY });
const out = {};
const created = await api.POST("/timers", { body: { type: "countdown", duration: 300, title: "Node", webhook_url: hook } });
out.created = { status: created.response.status, type: created.data.type, location: created.response.headers.get("location") };
const id = created.data.timer_id;
const started = await api.PATCH("/timers/{id}/state", { params: { path: { id } }, body: { action: "start" } });
out.started = started.data.state;
const read = await api.GET("/timers/{id}", { params: { path: { id } } });
out.read = { state: read.data.state, remaining: read.data.remaining_seconds };
const list = await api.GET("/timers", { params: { query: { limit: 10 } } });
out.listed = list.data.timers.map((t) => t.timer_id).includes(id);
const bad = await api.POST("/timers", { body: { type: "countdown" } });
out.error = { status: bad.response.status, field: bad.error.error.field };
await delivery;
const { raw, headers } = received[0];
const event = await verifyWebhook(raw, headers, [SECRET]);
out.verified = event && { event: event.event, timer_id: event.timer_id === id, data_state: event.data.state };
out.tampered = await verifyWebhook(raw.replace('"Node"', '"Nope"'), headers, [SECRET]);
out.wrongSecret = await verifyWebhook(raw, headers, ["whsec_" + btoa("x".repeat(32))]);
const deleted = await api.DELETE("/timers/{id}", { params: { path: { id } } });
out.deleted = deleted.data.deleted;
out.afterDelete = (await api.GET("/timers/{id}", { params: { path: { id } } })).response.status;
server.close();
console.log(JSON.stringify(out));
`;

const ROOT = new URL("../", import.meta.url).pathname;

/** Starts main.ts as the service runs (its own process, a KV file); resolves once it listens. */
async function startService(env: Record<string, string>) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "main.ts"],
    cwd: ROOT,
    env,
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  const deadline = Date.now() + 60_000;
  while (!/"msg":"listening"/.test(buffered)) {
    if (Date.now() > deadline) throw new Error(`the service did not start: ${buffered}`);
    const { value, done } = await lines.read();
    if (done) throw new Error(`the service exited: ${buffered}`);
    buffered += value;
  }
  // Keep draining its log so it never blocks on a full pipe.
  (async () => {
    while (!(await lines.read()).done) { /* discard */ }
  })().catch(() => {});
  child.stderr.cancel().catch(() => {});
  return {
    async stop() {
      child.kill("SIGTERM");
      await child.status;
    },
  };
}

Deno.test({
  name: "the packed SDK installs into a Node project and drives the real service, webhook verified",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const tmp = await Deno.makeTempDir({ prefix: "sdk-node-" });
    const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = (probe.addr as Deno.NetAddr).port;
    probe.close();
    const site = `http://127.0.0.1:${port}`;
    const env = {
      KV_PATH: `${tmp}/kv.sqlite3`,
      PORT: String(port),
      HOSTNAME: "127.0.0.1",
      SITE_URL: site,
      WEBHOOK_ALLOW_PRIVATE: "1",
    };
    const keys = JSON.parse(
      await run(
        Deno.execPath(),
        ["run", "-A", "scripts/keys.ts", "create", "--plan", "pro", "--name", "sdk", "--json"],
        ROOT,
        env,
      ),
    );
    const service = await startService(env);
    try {
      const packed = JSON.parse(await run("npm", ["pack", "--json", "--pack-destination", tmp], SDK.pathname));
      const files = packed[0].files.map((f: { path: string }) => f.path);
      assert.ok(files.includes("dist/index.js") && files.includes("dist/index.d.ts"), files.join(" "));
      assert.ok(!files.some((f: string) => f.startsWith("src/")), "only the built files are packed");
      const project = `${tmp}/app`;
      await Deno.mkdir(project);
      await Deno.writeTextFile(
        `${project}/package.json`,
        JSON.stringify({ name: "sdk-user", private: true, type: "module" }),
      );
      await run(
        "npm",
        ["install", "--no-audit", "--no-fund", "--loglevel=error", `${tmp}/${packed[0].filename}`],
        project,
      );
      await Deno.writeTextFile(`${project}/main.mjs`, NODE_SCRIPT);
      const out = JSON.parse(
        await run("node", ["main.mjs"], project, { BASE: site, KEY: keys.api_key, SECRET: keys.webhook_secret }),
      );
      assert.equal(out.created.status, 201);
      assert.equal(out.created.type, "countdown");
      assert.match(out.created.location, new RegExp(`^${site}/api/v1/timers/tmr_`));
      assert.equal(out.started, "running");
      assert.equal(out.read.state, "running");
      assert.ok(out.read.remaining <= 300 && out.read.remaining >= 290);
      assert.equal(out.listed, true);
      assert.deepEqual(out.error, { status: 422, field: "duration" });
      assert.deepEqual(out.verified, { event: "timer.started", timer_id: true, data_state: "running" });
      assert.equal(out.tampered, null);
      assert.equal(out.wrongSecret, null);
      assert.equal(out.deleted, true);
      assert.equal(out.afterDelete, 404);
    } finally {
      await service.stop();
      await Deno.remove(tmp, { recursive: true }).catch(() => {});
    }
  },
});

Deno.test("the README's receiver snippet type-checks against mod.ts", async () => {
  const readme = await Deno.readTextFile(new URL("../README.md", import.meta.url));
  const at = readme.indexOf("**Verify in a few lines**");
  const snippet = /```ts\n(.*?)```/s.exec(readme.slice(at))![1];
  assert.match(snippet, /verifyWebhook\(body, req\.headers, secrets/);
  // Checked where it would live (the repository root imports ./mod.ts), from a temporary file.
  const dir = await Deno.makeTempDir({ prefix: "readme-snippet-" });
  const file = `${dir}/receiver.ts`;
  await Deno.writeTextFile(
    file,
    snippet.replace('"./mod.ts"', JSON.stringify(new URL("../mod.ts", import.meta.url).href)),
  );
  try {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["check", "--config", `${ROOT}deno.json`, file],
      stderr: "piped",
    }).output();
    assert.ok(out.success, new TextDecoder().decode(out.stderr));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name: "the built verifyWebhook runs in Chromium (WebCrypto only) on the README vector",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const { launch } = await import("./browser/harness.ts");
    const js = await Deno.readTextFile(new URL("dist/webhooks.js", SDK));
    assert.doesNotMatch(js, /^import /m, "the verifier imports nothing at run time");
    const server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen() {} },
      (req) =>
        new URL(req.url).pathname === "/webhooks.js"
          ? new Response(js, { headers: { "content-type": "text/javascript" } })
          : new Response("<!doctype html><title>sdk</title>", { headers: { "content-type": "text/html" } }),
    );
    const browser = await launch();
    try {
      const page = await browser.newPage();
      await page.goto(`http://127.0.0.1:${server.addr.port}/`);
      const body = `${JSON.stringify(VECTOR.payload).slice(0, -1)},"signature":"${
        VECTOR.headers["x-service-signature"]
      }"}`;
      const result = await page.evaluate(async ([body, headers, secret, now]) => {
        const { verifyWebhook } = await import("/webhooks.js");
        const ok = await verifyWebhook(body, new Headers(headers), [secret], { now });
        const stale = await verifyWebhook(body, headers, [secret], { now: now + 600_000 });
        return { event: ok?.event, stale };
      }, [body, VECTOR.headers, VECTOR.secret, VECTOR.nowMs] as const);
      assert.deepEqual(result, { event: "timer.completed", stale: null });
    } finally {
      await browser.close();
      await server.shutdown();
    }
  },
});

Deno.test("the SDK types the show calls: zones and overtime on create, actions without a body, messages", async () => {
  const s = await setup();
  const sdkFetch = (input: Request) => s.app.app.request(input);
  const api = createClient({ baseUrl: "http://timers.test", apiKey: s.pro.apiKey, fetch: sdkFetch as typeof fetch });
  const created = await api.POST("/timers", {
    body: { type: "countdown", duration: 60, warn_at: 20, danger_at: 5, overtime: true },
  });
  const timer = created.data!;
  const zone: "normal" | "warning" | "danger" | "overtime" = timer.zone;
  assert.equal(zone, "normal");
  const control = createClient({
    baseUrl: "http://timers.test",
    apiKey: new URL(timer.control_url!).hash.slice(1),
    fetch: sdkFetch as typeof fetch,
  });
  const path = { id: timer.timer_id };
  assert.equal(
    (await control.POST("/timers/{id}/actions/{action}", { params: { path: { ...path, action: "start" } } }))
      .data?.state,
    "running",
  );
  const adjusted = await control.POST("/timers/{id}/actions/{action}", {
    params: { path: { ...path, action: "adjust" }, query: { seconds: 60 } },
  });
  const added: number = adjusted.data!.added_seconds;
  assert.equal(added, 60);
  const viaState = await api.PATCH("/timers/{id}/state", {
    params: { path },
    body: { action: "adjust", seconds: -30 },
  });
  assert.equal(viaState.data?.remaining_seconds, 90);
  const shown = await control.PUT("/timers/{id}/message", {
    params: { path },
    body: { text: "Wrap up", color: "red", flash: 3 },
  });
  const message = shown.data!.message!;
  assert.deepEqual([message.text, message.color, message.flash, message.blackout], ["Wrap up", "red", 3, false]);
  const refused = await control.PUT("/timers/{id}/message", { params: { path }, body: { text: "", blackout: false } });
  assert.equal(refused.error?.error.field, "text");
  assert.equal((await control.DELETE("/timers/{id}/message", { params: { path } })).data?.message, null);
  // Webhook payloads narrow on event.
  const payload = {
    event: "timer.warning",
    data: { zone: "warning", remaining_seconds: 20 },
  } as WebhookPayload;
  if (payload.event === "timer.warning") {
    const left: number = payload.data.remaining_seconds;
    assert.equal(left, 20);
  }
  await s.close();
});

Deno.test("the SDK types the account's logs: deliveries with each answer, redelivery by id, API requests", async () => {
  const s = await setup();
  const rx = receiver(() => new Response("thanks", { headers: { "x-receiver": "sdk" } }));
  const sdkFetch = (input: Request) => s.app.app.request(input);
  const api = createClient({ baseUrl: "http://timers.test", apiKey: s.pro.apiKey, fetch: sdkFetch as typeof fetch });
  const timer = (await api.POST("/timers", { body: { type: "countdown", duration: 60, webhook_url: rx.url } })).data!;
  await api.POST("/timers/{id}/webhook/test", { params: { path: { id: timer.timer_id } } });
  const page = await api.GET("/deliveries", {
    params: { query: { event: "webhook.test", status: "succeeded", timer_id: timer.timer_id } },
  });
  const [d] = page.data!.deliveries;
  const answer: string | undefined = d.attempts[0].response?.body;
  assert.equal(answer, "thanks");
  assert.equal(d.attempts[0].response?.headers["x-receiver"], "sdk");
  const again = await api.POST("/deliveries/{delivery_id}/redeliver", { params: { path: { delivery_id: d.id } } });
  assert.equal(again.data?.id, d.id);
  await s.app.scheduler.settled();
  const refused = await api.POST("/timers", { body: { type: "countdown", duration: 0 } });
  assert.equal(refused.response.status, 422);
  const requestId = refused.response.headers.get("x-request-id")!;
  const logged = await api.GET("/requests", { params: { query: { status: "4xx", request_id: requestId } } });
  const status: number | undefined = logged.data?.requests[0]?.status;
  assert.equal(status, 422);
  await rx.close();
  await s.close();
});
