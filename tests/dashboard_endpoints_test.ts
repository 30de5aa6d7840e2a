/** The Webhooks tab's Endpoints section: add, edit, disable, enable, delete, each a POST that redirects. */
import assert from "node:assert/strict";
import { Hono } from "hono";
import { Sessions } from "../lib/accounts/sessions.ts";
import { newUserId } from "../lib/ids.ts";
import { CSRF_FIELD } from "../routes/dashboard/session.ts";
import { setup } from "./helpers.ts";

type S = Awaited<ReturnType<typeof setup>>;
const ORIGIN = "http://timers.test";

async function signIn(s: S, accountId: string) {
  const user = {
    id: newUserId(),
    account_id: accountId,
    email: "owner@example.com",
    password_hash: null,
    email_verified_at: null,
    created_at: s.clock.now(),
  };
  await s.store.users.create(user);
  const sessions = new Sessions({ store: s.store, config: s.config, now: s.clock.now });
  let csrf = "";
  const res = await new Hono().get("/", async (c) => {
    csrf = (await sessions.start(c, user)).csrf;
    return c.text("ok");
  }).request("/");
  await res.body?.cancel();
  return { cookie: res.headers.get("set-cookie")!.split(";")[0], csrf };
}

type Who = Awaited<ReturnType<typeof signIn>>;

async function get(s: S, who: Who, path: string, extraCookie = "") {
  const res = await s.app.app.request(`${ORIGIN}${path}`, {
    headers: { cookie: who.cookie + extraCookie },
    redirect: "manual",
  });
  return { status: res.status, headers: res.headers, html: await res.text() };
}

/** A form POST from the dashboard, then the GET its redirect leads to (with the flash it left). */
async function submit(s: S, who: Who, path: string, fields: Record<string, string>) {
  const form = new URLSearchParams({ ...fields, [CSRF_FIELD]: who.csrf });
  const res = await s.app.app.request(`${ORIGIN}${path}`, {
    method: "POST",
    headers: {
      cookie: who.cookie,
      "content-type": "application/x-www-form-urlencoded",
      origin: ORIGIN,
      "sec-fetch-site": "same-origin",
    },
    body: form,
    redirect: "manual",
  });
  await res.body?.cancel();
  assert.equal(res.status, 303, path);
  assert.equal(res.headers.get("location"), "/dashboard/webhooks#endpoints");
  const flash = res.headers.get("set-cookie")?.match(/dash_flash=([^;]*)/)?.[1];
  return await get(s, who, "/dashboard/webhooks", flash ? `; dash_flash=${flash}` : "");
}

const decoded = (html: string) => html.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, "&");

Deno.test("the Webhooks tab adds, edits, disables, enables and deletes endpoints (Post/Redirect/Get)", async () => {
  const s = await setup();
  const who = await signIn(s, s.pro.account.id);
  const empty = await get(s, who, "/dashboard/webhooks");
  assert.match(empty.html, /id="endpoints"/);
  assert.match(empty.html, /No endpoints yet/);

  const added = await submit(s, who, "/dashboard/webhooks/endpoints", {
    url: "https://example.com/hooks",
    description: "Relay",
    events: "some",
    "ev.timer.completed": "on",
    enabled: "on",
  });
  assert.match(added.html, /Endpoint https:\/\/example.com\/hooks added/);
  const [ep] = (await s.call("GET", "/api/v1/webhook_endpoints")).body.endpoints;
  assert.deepEqual([ep.url, ep.description, ep.events, ep.enabled], [
    "https://example.com/hooks",
    "Relay",
    ["timer.completed"],
    true,
  ]);
  // A reload of the page after the redirect changes nothing.
  await get(s, who, "/dashboard/webhooks");
  assert.equal((await s.call("GET", "/api/v1/webhook_endpoints")).body.endpoints.length, 1);

  const base = `/dashboard/webhooks/endpoints/${ep.id}`;
  const edited = await submit(s, who, base, { url: "https://example.com/v2", description: "", events: "all" });
  assert.match(edited.html, /Endpoint https:\/\/example.com\/v2 saved/);
  const after = (await s.call("GET", `/api/v1/webhook_endpoints/${ep.id}`)).body;
  assert.deepEqual([after.url, after.events, after.enabled], ["https://example.com/v2", "all", false]);

  await submit(s, who, `${base}/enable`, {});
  assert.equal((await s.call("GET", `/api/v1/webhook_endpoints/${ep.id}`)).body.enabled, true);
  const disabled = await submit(s, who, `${base}/disable`, {});
  assert.match(disabled.html, /disabled: it receives nothing/);
  assert.equal((await s.call("GET", `/api/v1/webhook_endpoints/${ep.id}`)).body.enabled, false);

  const gone = await submit(s, who, `${base}/delete`, {});
  assert.match(gone.html, /Endpoint https:\/\/example.com\/v2 deleted/);
  assert.equal((await s.call("GET", "/api/v1/webhook_endpoints")).body.endpoints.length, 0);
  await s.close();
});

Deno.test("a refused endpoint form comes back once with what was typed and why; a reload shows a clean form", async () => {
  const s = await setup({ config: { webhookAllowPrivate: false } });
  const who = await signIn(s, s.pro.account.id);
  const refused = await submit(s, who, "/dashboard/webhooks/endpoints", {
    url: "http://example.com/plain",
    description: "Typed",
    events: "all",
    enabled: "on",
  });
  assert.match(decoded(refused.html), /role="alert">url must be .*WEBHOOK_ALLOW_PRIVATE=1/);
  assert.match(refused.html, /value="http:\/\/example.com\/plain"/);
  assert.match(refused.html, /value="Typed"/);
  const reloaded = await get(s, who, "/dashboard/webhooks");
  assert.doesNotMatch(reloaded.html, /WEBHOOK_ALLOW_PRIVATE/);
  assert.doesNotMatch(reloaded.html, /value="Typed"/);
  const none = await submit(s, who, "/dashboard/webhooks/endpoints", { url: "https://example.com/x", events: "some" });
  assert.match(none.html, /tick at least one event type/);
  assert.equal((await s.call("GET", "/api/v1/webhook_endpoints")).body.endpoints.length, 0);
  // Another account's endpoint cannot be touched from here.
  const theirs = (await s.call("POST", "/api/v1/webhook_endpoints", {
    body: { url: "https://example.com/theirs" },
    key: s.other.apiKey,
  })).body;
  const denied = await submit(s, who, `/dashboard/webhooks/endpoints/${theirs.id}/delete`, {});
  assert.match(denied.html, /webhook endpoint not found/);
  assert.equal((await s.call("GET", "/api/v1/webhook_endpoints", { key: s.other.apiKey })).body.endpoints.length, 1);
  await s.close();
});

Deno.test("Send example from the Webhooks tab: delivered to the endpoint, the outcome in the message", async () => {
  const { receiver } = await import("./helpers.ts");
  const s = await setup();
  const who = await signIn(s, s.pro.account.id);
  const rx = receiver((n) => new Response("", { status: n === 1 ? 200 : 503 }));
  const ep = (await s.call("POST", "/api/v1/webhook_endpoints", { body: { url: rx.url } })).body;
  const page = await get(s, who, "/dashboard/webhooks");
  assert.match(page.html, new RegExp(`action="/dashboard/webhooks/endpoints/${ep.id}/example"`));
  const sent = await submit(s, who, `/dashboard/webhooks/endpoints/${ep.id}/example`, { event: "timer.warning" });
  assert.match(sent.html, /Example timer.warning delivered: the endpoint answered 200/);
  assert.equal(rx.received[0].json.event, "timer.warning");
  assert.equal((rx.received[0].json.data as { test: boolean }).test, true);
  const failed = await submit(s, who, `/dashboard/webhooks/endpoints/${ep.id}/example`, { event: "timer.completed" });
  assert.match(failed.html, /Example timer.completed not delivered: HTTP 503/);
  await rx.close();
  await s.close();
});
