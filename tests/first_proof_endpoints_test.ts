/**
 * Account webhook endpoints are a lasting feed of the account's events: the first proof of a
 * mailbox deletes those made before it, a request under way then adds none after it, and the
 * dashboard adds or edits one only for a recent sign-in. Through the real app on a fresh KV.
 */
import assert from "node:assert/strict";
import { FRESH_MS } from "../lib/accounts/sessions.ts";
import { accountsWorld, formBrowser } from "./helpers.ts";

const SITE = "https://timers.test";
const PASSWORD = "a long enough phrase";
const HOOK = "http://127.0.0.1:9/hook";
type World = Awaited<ReturnType<typeof accountsWorld>>;

function browser(w: World, ip: string) {
  const b = formBrowser(w.app.app, SITE, ip);
  const addEndpoint = (url: string) =>
    b.form("/dashboard/webhooks", "/dashboard/webhooks/endpoints", { url, events: "all", enabled: "on" });
  return { ...b, addEndpoint };
}

/** Calls the API with a key. */
async function api(w: World, key: string, method: string, path: string, body?: unknown) {
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (body !== undefined) headers["content-type"] = "application/json";
  const r = await w.app.app.request(`${SITE}/api/v1${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : null };
}

/** A stranger signed up with the victim's email, with a session and an API key. */
async function preHijack(w: World, email: string) {
  const attacker = browser(w, "192.0.2.66");
  assert.equal((await attacker.form("/signup", "/signup", { email, password: PASSWORD })).status, 303);
  assert.equal((await attacker.form("/dashboard/keys", "/dashboard/keys", { name: "mine" })).status, 303);
  const key = /tsk_[0-9A-Za-z]{32}/.exec((await attacker.request("GET", "/dashboard/keys")).text)![0];
  const user = (await w.store.users.byEmail(email))!;
  return { attacker, key, user };
}

/** The owner proves the mailbox with a reset, then makes a key of their own. */
async function ownerResets(w: World, email: string) {
  const owner = browser(w, "203.0.113.7");
  await owner.form("/reset", "/reset/request", { email });
  const token = w.lastToken("/reset");
  const r = await owner.form(`/reset?token=${token}`, "/reset", { token, password: "the owner's own phrase" });
  assert.equal(r.status, 303);
  assert.equal((await owner.form("/dashboard/keys", "/dashboard/keys", { name: "owner's" })).status, 303);
  const key = /tsk_[0-9A-Za-z]{32}/.exec((await owner.request("GET", "/dashboard/keys")).text)![0];
  return { owner, key };
}

Deno.test("the first proof of a mailbox deletes the webhook endpoints a pre-hijacker added", async () => {
  const w = await accountsWorld({ signupPlan: "pro" });
  const h = await preHijack(w, "victim@example.org");
  assert.equal((await h.attacker.addEndpoint(HOOK)).status, 303);
  assert.equal((await api(w, h.key, "POST", "/webhook_endpoints", { url: `${HOOK}2` })).status, 201);
  assert.equal((await w.store.endpoints.read(h.user.account_id)).endpoints.length, 2);

  const { key } = await ownerResets(w, "victim@example.org");
  assert.equal((await api(w, h.key, "GET", "/webhook_endpoints")).status, 401, "the stranger's key is gone");
  const listed = await api(w, key, "GET", "/webhook_endpoints");
  assert.equal(listed.status, 200);
  assert.deepEqual(listed.body.endpoints, [], "no endpoint of the stranger's is left");
  // Nothing left for the sender to plan the owner's events with.
  assert.deepEqual(await w.store.endpoints.of(h.user.account_id, w.clock.now() + 60_000), []);

  // The owner adds their own; a later reset (of a confirmed account) keeps it.
  assert.equal((await api(w, key, "POST", "/webhook_endpoints", { url: HOOK })).status, 201);
  const again = browser(w, "203.0.113.8");
  await again.form("/reset", "/reset/request", { email: "victim@example.org" });
  const token = w.lastToken("/reset");
  await again.form(`/reset?token=${token}`, "/reset", { token, password: "the owner's next phrase" });
  assert.equal((await api(w, key, "GET", "/webhook_endpoints")).body.endpoints.length, 1);
  await w.close();
});

/**
 * Holds the first read of the account's endpoints (an endpoint's creation, under way) until the
 * owner's reset is done, then lets it go on: it stores its endpoint after the proof deleted them.
 */
async function createdAcrossTheProof(w: World, accountId: string, create: () => Promise<{ status: number }>) {
  const entered = Promise.withResolvers<void>();
  const gate = Promise.withResolvers<void>();
  const read = w.store.endpoints.read.bind(w.store.endpoints);
  let held = false;
  w.store.endpoints.read = async (acct: string) => {
    if (!held && acct === accountId) {
      held = true;
      entered.resolve();
      await gate.promise;
    }
    return await read(acct);
  };
  const pending = create();
  await entered.promise;
  const owner = await ownerResets(w, "victim@example.org");
  gate.resolve();
  const answer = await pending;
  w.store.endpoints.read = read;
  return { answer, owner };
}

Deno.test("an endpoint added through the dashboard while the first proof ran is not left behind", async () => {
  const w = await accountsWorld({ signupPlan: "pro" });
  const h = await preHijack(w, "victim@example.org");
  const csrf = await h.attacker.csrfOf("/dashboard/webhooks");
  const { answer, owner } = await createdAcrossTheProof(w, h.user.account_id, async () => {
    const r = await h.attacker.request("POST", "/dashboard/webhooks/endpoints", {
      form: { _csrf: csrf, url: HOOK, events: "all", enabled: "on" },
    });
    return r;
  });
  assert.equal(answer.status, 401);
  assert.deepEqual((await api(w, owner.key, "GET", "/webhook_endpoints")).body.endpoints, []);
  await w.close();
});

Deno.test("an endpoint added with a key while the first proof deleted it is not left behind", async () => {
  const w = await accountsWorld({ signupPlan: "pro" });
  const h = await preHijack(w, "victim@example.org");
  const { answer, owner } = await createdAcrossTheProof(
    w,
    h.user.account_id,
    () => api(w, h.key, "POST", "/webhook_endpoints", { url: HOOK }),
  );
  assert.equal(answer.status, 401);
  assert.deepEqual((await api(w, owner.key, "GET", "/webhook_endpoints")).body.endpoints, []);
  await w.close();
});

Deno.test("a session older than FRESH_MS adds no webhook endpoint and changes none; other endpoint buttons work", async () => {
  const w = await accountsWorld({ signupPlan: "pro" });
  const b = browser(w, "203.0.113.7");
  assert.equal((await b.form("/signup", "/signup", { email: "hooks@example.com", password: PASSWORD })).status, 303);
  const account = (await w.store.users.byEmail("hooks@example.com"))!.account_id;
  assert.equal((await b.addEndpoint(HOOK)).status, 303, "a fresh session adds one");
  const [ep] = (await w.store.endpoints.read(account)).endpoints;
  w.clock.advance(FRESH_MS);

  const added = await b.addEndpoint(`${HOOK}2`);
  assert.equal(added.status, 403);
  assert.match(added.text, /href="\/login\?reauth=1&amp;next=%2Fdashboard%2Fwebhooks"/);
  const edited = await b.form("/dashboard/webhooks", `/dashboard/webhooks/endpoints/${ep.id}`, {
    url: "http://127.0.0.1:9/elsewhere",
    events: "all",
    enabled: "on",
  });
  assert.equal(edited.status, 403);
  assert.deepEqual((await w.store.endpoints.read(account)).endpoints, [ep], "nothing added or changed");

  // Turning one off and deleting it need no recent sign-in.
  const off = await b.form("/dashboard/webhooks", `/dashboard/webhooks/endpoints/${ep.id}/disable`, {});
  assert.equal(off.status, 303);
  assert.equal((await w.store.endpoints.read(account)).endpoints[0].enabled, false);
  assert.equal((await b.form("/dashboard/webhooks", `/dashboard/webhooks/endpoints/${ep.id}/delete`, {})).status, 303);
  assert.deepEqual((await w.store.endpoints.read(account)).endpoints, []);
  await w.close();
});
