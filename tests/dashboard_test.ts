/** The dashboard over HTTP: every page, CSRF and same-origin on every POST, ownership, keys, timers, webhooks. */
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { type Config, DEFAULT_PLANS } from "../config.ts";
import { Hono } from "hono";
import { createBareAccount, createKey, setPlan } from "../lib/accounts/accounts.ts";
import { Sessions } from "../lib/accounts/sessions.ts";
import { USAGE_TIMERS_COUNTED } from "../lib/accounts/usage.ts";
import { key } from "../lib/kv/keys.ts";
import { newSecretToken, newUserId } from "../lib/ids.ts";
import { LANGS } from "../lib/i18n.ts";
import { authTexts } from "../routes/auth/texts.ts";
import { CSRF_FIELD } from "../routes/dashboard/session.ts";
import { dashTexts } from "../routes/dashboard/texts.ts";
import { TRANSLATIONS } from "../routes/dashboard/lang/mod.ts";
import { verifyWebhook } from "../mod.ts";
import { placeHeldUntilDone, receiver, served, setup } from "./helpers.ts";

type S = Awaited<ReturnType<typeof setup>>;
const ORIGIN = "http://timers.test";
const EVIL = "</script><script>alert(1)</script>";

/** A signed-in person of `accountId`: a user, and a session started by sign-in's own Sessions. */
async function signIn(s: S, accountId: string, email: string) {
  const user = {
    id: newUserId(),
    account_id: accountId,
    email,
    password_hash: null,
    email_verified_at: null,
    created_at: s.clock.now(),
  };
  await s.store.users.create(user);
  const sessions = new Sessions({ store: s.store, config: s.config, now: s.clock.now });
  let csrf = "";
  const signer = new Hono().get("/", async (c) => {
    csrf = (await sessions.start(c, user)).csrf;
    return c.text("ok");
  });
  const res = await signer.request("/");
  await res.body?.cancel();
  const cookie = res.headers.get("set-cookie")!.split(";")[0];
  return { cookie, csrf };
}

type Who = Awaited<ReturnType<typeof signIn>>;

async function get(s: S, who: Who | null, path: string, headers: Record<string, string> = {}) {
  const res = await s.app.app.request(`${ORIGIN}${path}`, {
    headers: { ...(who ? { cookie: who.cookie } : {}), ...headers },
    redirect: "manual",
  });
  return { status: res.status, headers: res.headers, html: await res.text() };
}

/** A form POST as the browser sends it from the dashboard (same origin, with the token) unless told otherwise. */
async function post(
  s: S,
  who: Who,
  path: string,
  fields: Record<string, string> = {},
  o: { csrf?: string | null; site?: string | null; origin?: string | null } = {},
) {
  const form = new URLSearchParams(fields);
  const csrf = o.csrf === undefined ? who.csrf : o.csrf;
  if (csrf !== null) form.set(CSRF_FIELD, csrf);
  const headers: Record<string, string> = {
    cookie: who.cookie,
    "content-type": "application/x-www-form-urlencoded",
  };
  const site = o.site === undefined ? "same-origin" : o.site;
  if (site !== null) headers["sec-fetch-site"] = site;
  const origin = o.origin === undefined ? ORIGIN : o.origin;
  if (origin !== null) headers.origin = origin;
  const res = await s.app.app.request(`${ORIGIN}${path}`, { method: "POST", headers, body: form, redirect: "manual" });
  return { status: res.status, headers: res.headers, html: await res.text() };
}

/** Visible text, roughly, as on a desktop: the column names that cells repeat for a phone (.cell-label) left out. */
const CELL_LABEL = /<span class="cell-label[^"]*"[^>]*>[^<]*<\/span>/g;
const text = (html: string) =>
  html.replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/g, "").replace(CELL_LABEL, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");

/** The flash message the next GET shows, from the redirect's cookie. */
async function followFlash(s: S, who: Who, res: { status: number; headers: Headers }) {
  assert.equal(res.status, 303);
  const flash = res.headers.get("set-cookie")?.match(/dash_flash=([^;]*)/)?.[1] ?? "";
  const page = await get(s, { ...who, cookie: `${who.cookie}; dash_flash=${flash}` }, res.headers.get("location")!);
  assert.match(page.headers.get("set-cookie") ?? "", /dash_flash=;.*Max-Age=0/, "the message is shown once");
  return { ...page, text: text(page.html) };
}

/** The page a form's redirect leads to (Post/Redirect/Get), with the flash cookie if the POST left one. */
async function follow(s: S, who: Who, res: { status: number; headers: Headers; html?: string }) {
  assert.equal(res.status, 303, res.html?.slice(0, 300));
  const flash = res.headers.get("set-cookie")?.match(/dash_flash=([^;]*)/)?.[1];
  const page = await get(
    s,
    flash ? { ...who, cookie: `${who.cookie}; dash_flash=${flash}` } : who,
    res.headers.get("location")!,
  );
  return { ...page, text: text(page.html) };
}

async function fixture(config: Partial<Config> = {}) {
  const s = await setup({ config });
  const owner = await signIn(s, s.pro.account.id, "owner@example.com");
  const stranger = await signIn(s, s.other.account.id, "other@example.com");
  return { s, owner, stranger };
}

Deno.test("the overview counts an account's timers up to 10 000 (then 10 000+), not every one on every view", async () => {
  const s = await setup();
  const owner = await signIn(s, s.enterprise.account.id, "big@example.com");
  // An enterprise account may hold 100 000 timers: the overview listed all of their index entries on
  // every view (≈ 350 ms of KV and the event loop each, and nothing limits how often it is viewed).
  const until = s.clock.now() + 86400_000;
  for (let i = 0; i < 10_050; i += 500) {
    const op = s.kv.atomic();
    for (let j = i; j < Math.min(i + 500, 10_050); j++) {
      op.set(key.acctTimers(s.enterprise.account.id).concat(`tmr_${String(j).padStart(16, "0")}`), until);
    }
    await op.commit();
  }
  const list = s.kv.list.bind(s.kv);
  let read = 0;
  s.kv.list = ((selector: Deno.KvListSelector, options?: Deno.KvListOptions) => {
    const iter = list(selector, options);
    const next = iter.next.bind(iter);
    iter.next = async () => {
      const r = await next();
      if (!r.done && (r.value.key[0] === "acct_timers")) read++;
      return r;
    };
    return iter;
  }) as typeof s.kv.list;
  const page = await get(s, owner, "/dashboard");
  assert.equal(page.status, 200);
  assert.match(text(page.html), /10,000\+/);
  assert.ok(read <= USAGE_TIMERS_COUNTED, `${read} index entries read`);
  await s.close();
});

Deno.test("without a session every dashboard page sends the browser to sign in", async () => {
  const { s } = await fixture();
  for (const path of ["/dashboard", "/dashboard/keys", "/dashboard/timers", "/dashboard/webhooks"]) {
    const r = await get(s, null, path);
    assert.equal(r.status, 303, path);
    assert.match(r.headers.get("location")!, /^\/login/);
  }
  const forged = await get(s, { cookie: `session=${newSecretToken()}`, csrf: "" }, "/dashboard");
  assert.equal(forged.status, 303, "an unknown session token is no session");
  await s.close();
});

Deno.test("every page renders for the signed-in owner, uncached and unframeable", async () => {
  const { s, owner } = await fixture();
  const timer = await s.create({ type: "countdown", duration: 90, title: EVIL });
  for (
    const path of [
      "/dashboard",
      "/dashboard/keys",
      "/dashboard/webhooks",
      "/dashboard/timers",
      `/dashboard/timers/${timer.timer_id}`,
      "/dashboard/account",
    ]
  ) {
    const r = await get(s, owner, path);
    assert.equal(r.status, 200, `${path}: ${text(r.html).slice(0, 200)}`);
    assert.match(r.headers.get("content-type")!, /text\/html/);
    assert.equal(r.headers.get("cache-control"), "no-store");
    assert.match(r.headers.get("content-security-policy")!, /frame-ancestors 'none'/);
    assert.match(text(r.html), /owner@example\.com/, "the header names who is signed in");
    assert.match(r.html, /href="\/dashboard\/account"/, "the account page is linked");
    assert.doesNotMatch(r.html, /<script>alert\(1\)/, `${path} escapes a hostile title`);
  }
  const list = await get(s, owner, "/dashboard/timers");
  assert.match(text(list.html), /<\/script><script>alert\(1\)<\/script>/, "the title shows as text");
  assert.match(list.html, /data-island="DashboardTimers"/);
  const overview = text((await get(s, owner, "/dashboard")).html);
  assert.match(overview, /pro/);
  assert.match(overview, /Timers stored 1 50/, "timers stored against the plan's 50");
  assert.match(overview, /Requests this minute 1 100,000/, "the request just made is counted");
  assert.match(overview, /Requests today 1 Unlimited/);
  await s.close();
});

Deno.test("every POST is refused without the session's CSRF token or from another site", async () => {
  const { s, owner } = await fixture();
  const timer = await s.create({ type: "countdown", duration: 90 });
  const id = timer.timer_id;
  const posts: [string, Record<string, string>][] = [
    ["/dashboard/keys", { name: "ci" }],
    ["/dashboard/keys/key_x/revoke", {}],
    ["/dashboard/webhooks/reveal", {}],
    ["/dashboard/webhooks/rotate", {}],
    ["/dashboard/webhooks/retire", {}],
    ["/dashboard/webhooks/endpoints", { url: "https://example.com/forged", events: "all", enabled: "on" }],
    ["/dashboard/webhooks/endpoints/we_x/disable", {}],
    ["/dashboard/timers", { type: "countdown", duration: "60" }],
    [`/dashboard/timers/${id}/action`, { action: "start" }],
    [`/dashboard/timers/${id}/test`, {}],
    [`/dashboard/timers/${id}/control`, {}],
    [`/dashboard/timers/${id}/deliveries/evt_x/redeliver`, {}],
    [`/dashboard/timers/${id}/edit`, { title: "Forged", theme: "dark", color: "000000", webhook_url: "" }],
    [`/dashboard/timers/${id}/delete`, { confirm: "yes" }],
  ];
  const before = (await s.store.accounts.get(s.pro.account.id))!;
  for (const [path, fields] of posts) {
    const cases = {
      "no token": await post(s, owner, path, fields, { csrf: null }),
      "a wrong token": await post(s, owner, path, fields, { csrf: newSecretToken() }),
      "a cross-site form": await post(s, owner, path, fields, { site: "cross-site", origin: "https://evil.test" }),
      "another origin without fetch metadata": await post(s, owner, path, fields, {
        site: null,
        origin: "https://evil.test",
      }),
    };
    for (const [what, r] of Object.entries(cases)) assert.equal(r.status, 403, `${path} with ${what}`);
  }
  const after = (await s.store.accounts.get(s.pro.account.id))!;
  assert.deepEqual(after.webhook_secrets, before.webhook_secrets, "no refused POST rotated the secret");
  const kept = (await s.call("GET", `/api/v1/timers/${id}`)).body;
  assert.equal(kept.state, "idle", "no refused POST started the timer");
  assert.equal(kept.title, null, "no refused POST edited the timer");
  assert.equal(kept.theme, "dark");
  const token = timer.control_url.split("#")[1];
  assert.equal(
    (await s.call("GET", `/api/v1/timers/${id}`, { key: token })).status,
    200,
    "nor replaced its control link",
  );
  assert.equal((await s.call("GET", "/api/v1/timers")).body.timers.length, 1, "no refused POST created a timer");
  await s.close();
});

Deno.test("another account's timer is 404 on every page and form", async () => {
  const { s, stranger } = await fixture();
  const timer = await s.create({ type: "countdown", duration: 90 });
  const id = timer.timer_id;
  assert.equal((await get(s, stranger, `/dashboard/timers/${id}`)).status, 404);
  for (const path of ["action", "test", "edit", "control", "delete", "deliveries/evt_x/redeliver"]) {
    const r = await post(s, stranger, `/dashboard/timers/${id}/${path}`, { action: "start", title: "Mine" });
    assert.equal(r.status, 404, path);
    const confirmed = await post(s, stranger, `/dashboard/timers/${id}/${path}`, {
      action: "start",
      confirm: "yes",
      color: "000000",
    });
    assert.equal(confirmed.status, 404, `${path}, confirmed`);
  }
  const list = text((await get(s, stranger, "/dashboard/timers")).html);
  assert.doesNotMatch(list, new RegExp(id));
  const kept = (await s.call("GET", `/api/v1/timers/${id}`)).body;
  assert.equal(kept.state, "idle");
  assert.equal(kept.title, null, "not renamed");
  assert.equal(kept.color, "6C63FF", "not recoloured");
  const token = timer.control_url.split("#")[1];
  assert.equal(
    (await s.call("GET", `/api/v1/timers/${id}`, { key: token })).status,
    200,
    "its control link not replaced",
  );
  await s.close();
});

Deno.test("a key is shown once, works against the API, lists by prefix and stops working when revoked", async () => {
  const { s, owner } = await fixture();
  const posted = await post(s, owner, "/dashboard/keys", { name: "ci runner" });
  assert.equal(posted.headers.get("location"), "/dashboard/keys");
  const created = await follow(s, owner, posted);
  const secret = created.html.match(/tsk_[A-Za-z0-9]+/)?.[0];
  assert.ok(secret, "the new key is on the page");
  assert.equal(created.headers.get("cache-control"), "no-store");
  const r = await s.call("POST", "/api/v1/timers", { key: secret, body: { type: "countdown", duration: 60 } });
  assert.equal(r.status, 201);
  const keysPage = await get(s, owner, "/dashboard/keys");
  assert.doesNotMatch(keysPage.html, new RegExp(secret), "never shown again");
  assert.match(text(keysPage.html), new RegExp(`ci runner ${secret.slice(0, 12)}…`));
  const bad = await post(s, owner, "/dashboard/keys", { name: "   " });
  assert.equal(bad.status, 422);
  assert.match(bad.html, /aria-invalid="true"/);
  const rows = [...keysPage.html.matchAll(/data-key="([^"]+)"><th scope="row">([^<]+)</g)];
  const ci = rows.find((m) => m[2] === "ci runner")![1];
  const revoked = await followFlash(s, owner, await post(s, owner, `/dashboard/keys/${ci}/revoke`));
  assert.match(revoked.text, /Key “ci runner” revoked/);
  assert.doesNotMatch(revoked.text, /ci runner tsk_/, "the revoked key left the list");
  const after = await s.call("GET", "/api/v1/timers", { key: secret });
  assert.equal(after.status, 401, "the API refuses the revoked key at once");
  assert.equal((await s.call("GET", "/api/v1/timers")).status, 200, "the account's other key still works");
  assert.equal((await post(s, owner, "/dashboard/keys/key_nope/revoke")).status, 404);
  await s.close();
});

Deno.test("a timer created from the form follows the API's rules; the control link is shown once", async () => {
  const { s, owner } = await fixture();
  const bad = await post(s, owner, "/dashboard/timers", { type: "countdown", duration: "abc", work: "5" });
  assert.equal(bad.status, 422);
  assert.match(text(bad.html), /duration must be an integer from 1 to 31536000 \(seconds\), got "abc"/);
  assert.match(bad.html, /name="duration" type="text" value="abc" aria-invalid="true"/, "the typed value is kept");
  const past = await post(s, owner, "/dashboard/timers", {
    type: "event",
    target_date: "2020-01-01T00:00",
    timezone: "Asia/Tokyo",
  });
  assert.equal(past.status, 422);
  assert.match(text(past.html), /target_date must be in the future/);
  const zone = await post(s, owner, "/dashboard/timers", {
    type: "event",
    target_date: "2030-01-01T00:00",
    timezone: "Mars/Base",
  });
  assert.match(text(zone.html), /timezone must be an IANA time zone/);

  const ok = await post(s, owner, "/dashboard/timers", {
    type: "event",
    title: "New Year",
    target_date: "2027-01-01T00:00",
    timezone: "Asia/Tokyo",
    duration: "99", // another type's field: ignored, as the form hides it
    theme: "dark",
    color: "#00aa88",
  });
  const shown = await follow(s, owner, ok);
  assert.match(shown.text, /Timer “New Year” created/);
  const control = shown.html.match(/http:\/\/timers\.test\/c\/(tmr_\w+)#(tct_\w+)/)!;
  assert.ok(control, "the control URL with its token");
  const list = (await s.call("GET", "/api/v1/timers")).body.timers;
  assert.equal(list.length, 1);
  assert.equal(list[0].target_date, "2026-12-31T15:00:00.000Z", "midnight in Tokyo");
  assert.equal(list[0].color, "00AA88");
  assert.equal(
    (await s.call("GET", `/api/v1/timers/${control[1]}`, { key: control[2] })).status,
    200,
    "the control token works",
  );
  const page = await get(s, owner, `/dashboard/timers/${control[1]}`);
  assert.doesNotMatch(page.html, /tct_/, "shown only once");

  // A lost or leaked link is replaced from the timer's page: the old one stops, the new one is shown once.
  assert.match(page.html, /action="\/dashboard\/timers\/tmr_\w+\/control"/);
  const replaced = await follow(s, owner, await post(s, owner, `/dashboard/timers/${control[1]}/control`));
  assert.match(replaced.text, /A new control link replaces the old one/);
  const fresh = replaced.html.match(/http:\/\/timers\.test\/c\/(tmr_\w+)#(tct_\w+)/)!;
  assert.equal(fresh[1], control[1]);
  assert.notEqual(fresh[2], control[2]);
  assert.equal((await s.call("GET", `/api/v1/timers/${control[1]}`, { key: control[2] })).status, 401);
  assert.equal((await s.call("GET", `/api/v1/timers/${control[1]}`, { key: fresh[2] })).status, 200);
  assert.doesNotMatch((await get(s, owner, `/dashboard/timers/${control[1]}`)).html, /tct_/, "again shown once");
  await s.close();
});

Deno.test("actions go through the timer service: done, refused with the API's message, deleted", async () => {
  const { s, owner } = await fixture();
  const { timer_id: id } = await s.create({ type: "countdown", duration: 90, title: "Tea" });
  const started = await followFlash(
    s,
    owner,
    await post(s, owner, `/dashboard/timers/${id}/action`, {
      action: "start",
      back: "/dashboard/timers?state=running",
    }),
  );
  assert.match(started.text, /Start: done/);
  assert.match(started.html, /data-state="running"/);
  assert.equal((await s.call("GET", `/api/v1/timers/${id}`)).body.state, "running");
  const again = await post(s, owner, `/dashboard/timers/${id}/action`, { action: "start", back: "https://evil.test/" });
  assert.equal(again.headers.get("location"), `/dashboard/timers/${id}`, "no redirect off the dashboard");
  const refused = await followFlash(s, owner, again);
  assert.match(refused.text, /cannot start a running timer|start.*running/i);
  assert.match(refused.html, /flash--error/);
  const paused = await get(s, owner, "/dashboard/timers?state=paused");
  assert.doesNotMatch(paused.html, new RegExp(`data-timer="${id}"`), "the state filter leaves it out");
  const events = await get(s, owner, "/dashboard/timers?type=event");
  assert.doesNotMatch(events.html, new RegExp(`data-timer="${id}"`), "the type filter leaves it out");
  const gone = await followFlash(s, owner, await post(s, owner, `/dashboard/timers/${id}/delete`, { confirm: "yes" }));
  assert.match(gone.text, /Timer deleted/);
  assert.equal((await s.call("GET", `/api/v1/timers/${id}`)).status, 404);
  await s.close();
});

/** The start tag of the element with `id` (its attributes, as rendered). */
function tagOf(html: string, id: string): string {
  const m = html.match(new RegExp(`<(?:input|select)[^>]*\\bid="${id}"[^>]*>`));
  assert.ok(m, `no field #${id}`);
  return m[0];
}

Deno.test("the timer page edits title, theme, colour and webhook URL through the API's rules", async () => {
  const { s, owner, stranger } = await fixture();
  const { timer_id: id } = await s.create({
    type: "countdown",
    duration: 90,
    title: "Tea",
    webhook_url: "https://example.com/a",
  });
  const path = `/dashboard/timers/${id}`;
  const page = await get(s, owner, path);
  assert.match(page.html, new RegExp(`<form method="post" action="/dashboard/timers/${id}/edit"`));
  assert.match(tagOf(page.html, "edit-title"), /value="Tea"/, "the form starts from the timer's values");
  assert.match(tagOf(page.html, "edit-color"), /value="6C63FF"/);
  assert.match(tagOf(page.html, "edit-webhook_url"), /value="https:\/\/example\.com\/a"/);
  assert.match(page.html, /<option value="dark" selected>/, "the default theme");
  assert.match(text(page.html), /Leave it empty to remove the webhook/, "the form says what an empty field does");

  // Every field at once, as typed in the form (a colour with its #).
  const saved = await post(s, owner, `${path}/edit`, {
    title: "  Green tea ",
    theme: "light",
    color: "#00aa88",
    webhook_url: "https://example.com/b",
  });
  assert.equal(saved.headers.get("location"), path, "answered by a redirect to the timer's page");
  const shown = await followFlash(s, owner, saved);
  assert.match(shown.text, /Changes saved\./);
  let api = (await s.call("GET", `/api/v1/timers/${id}`)).body;
  assert.equal(api.title, "Green tea");
  assert.equal(api.theme, "light");
  assert.equal(api.color, "00AA88");
  assert.equal(api.webhook_url, "https://example.com/b");
  assert.match(tagOf(shown.html, "edit-title"), /value="Green tea"/);
  assert.match(shown.html, /<option value="light" selected>/);

  // One field alone: the others stay as they are.
  await followFlash(s, owner, await post(s, owner, `${path}/edit`, { theme: "auto" }));
  api = (await s.call("GET", `/api/v1/timers/${id}`)).body;
  assert.equal(api.theme, "auto");
  assert.equal(api.title, "Green tea");
  assert.equal(api.webhook_url, "https://example.com/b");

  // A refused value: the API's 422 and message, beside its field, the typed values kept, the cursor in it.
  const refusals: [string, Record<string, string>, Record<string, unknown>][] = [
    ["color", { color: "zz" }, { color: "zz" }],
    ["webhook_url", { webhook_url: "ftp://example.com/x" }, { webhook_url: "ftp://example.com/x" }],
    ["title", { title: "x".repeat(101) }, { title: "x".repeat(101) }],
    ["theme", { theme: "neon" }, { theme: "neon" }],
  ];
  for (const [field, fields, body] of refusals) {
    const typed: Record<string, string> = {
      title: "Oolong",
      theme: "light",
      color: "112233",
      webhook_url: "https://example.com/c",
      ...fields,
    };
    const r = await post(s, owner, `${path}/edit`, typed);
    assert.equal(r.status, 422, field);
    const viaApi = await s.call("PATCH", `/api/v1/timers/${id}`, { body });
    assert.equal(viaApi.status, 422, field);
    assert.equal(viaApi.body.error.field, field);
    const message = viaApi.body.error.message;
    const bad = tagOf(r.html, `edit-${field}`);
    assert.match(bad, /aria-invalid="true"/, field);
    assert.match(bad, new RegExp(`aria-describedby="[^"]*edit-${field}-error"`), field);
    assert.match(bad, /autofocus/, `${field}: the cursor goes to the refused field`);
    const escaped = message.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
    assert.ok(
      r.html.includes(`<p id="edit-${field}-error" class="field-error" role="alert">${escaped}</p>`),
      `${field}: the API's message "${message}" beside the field`,
    );
    assert.equal((r.html.match(/autofocus/g) ?? []).length, 1, `${field}: one field has the cursor`);
    for (const other of ["title", "color", "webhook_url"].filter((k) => k !== field)) {
      assert.ok(tagOf(r.html, `edit-${other}`).includes(`value="${typed[other]}"`), `${field}: ${other} kept as typed`);
      assert.doesNotMatch(tagOf(r.html, `edit-${other}`), /aria-invalid/);
    }
    if (field !== "theme") assert.ok(tagOf(r.html, `edit-${field}`).includes(`value="${typed[field]}"`));
  }
  api = (await s.call("GET", `/api/v1/timers/${id}`)).body;
  assert.deepEqual([api.title, api.theme, api.color, api.webhook_url], [
    "Green tea",
    "auto",
    "00AA88",
    "https://example.com/b",
  ], "a refused form changes nothing");

  // Empty title and webhook URL fields clear them (null), as the API's null does.
  const cleared = await followFlash(
    s,
    owner,
    await post(s, owner, `${path}/edit`, { title: "", theme: "auto", color: "00AA88", webhook_url: "  " }),
  );
  api = (await s.call("GET", `/api/v1/timers/${id}`)).body;
  assert.equal(api.title, null);
  assert.equal(api.webhook_url, null);
  assert.match(cleared.text, /Webhook URL None\./);
  assert.match(cleared.text, /Untitled Countdown/);
  assert.doesNotMatch(cleared.html, /Send test payload/, "no webhook, no test send");

  // Another account's timer: 404, unchanged.
  const foreign = await post(s, stranger, `${path}/edit`, { title: "Mine", theme: "dark" });
  assert.equal(foreign.status, 404);
  assert.equal((await s.call("GET", `/api/v1/timers/${id}`)).body.title, null);
  await s.close();
});

Deno.test("removing the webhook from the timer page drops retries to the old URL", async () => {
  const hook = receiver(() => new Response("down", { status: 503 }));
  const { s, owner } = await fixture({ webhookRetryDelays: [60, 60, 60, 60] });
  const { timer_id: id } = await s.create({ type: "countdown", duration: 600, webhook_url: hook.url });
  await s.act(id, "start");
  await hook.waitFor(1);
  await s.app.scheduler.settled();
  const before = (await s.call("GET", `/api/v1/timers/${id}/deliveries`)).body.deliveries;
  assert.equal(before[0].state, "pending", "a retry is due");
  const page = await followFlash(
    s,
    owner,
    await post(s, owner, `/dashboard/timers/${id}/edit`, { webhook_url: "", title: "", theme: "light" }),
  );
  assert.match(page.text, /Changes saved\./);
  assert.equal((await s.call("GET", `/api/v1/timers/${id}`)).body.webhook_url, null);
  const after = (await s.call("GET", `/api/v1/timers/${id}/deliveries`)).body.deliveries;
  assert.equal(after[0].state, "failed");
  assert.equal(after[0].next_attempt_at, null);
  assert.match(after[0].attempts.at(-1).error, /webhook_url changed; retries to the old URL dropped/);
  assert.match(page.html, /data-state="failed"/, "the log on the page says so");
  await hook.close();
  await s.close();
});

Deno.test("edits from the timer page count against the account's API rate limit", async () => {
  const plans = structuredClone(DEFAULT_PLANS);
  plans.pro.per_minute = 2;
  const { s, owner } = await fixture({ plans });
  const { timer_id: id } = await s.create({ type: "countdown", duration: 90 }); // request 1
  assert.equal((await post(s, owner, `/dashboard/timers/${id}/edit`, { title: "One" })).status, 303); // request 2
  const over = await post(s, owner, `/dashboard/timers/${id}/edit`, { title: "Two" });
  assert.equal(over.status, 429);
  assert.ok(Number(over.headers.get("retry-after")) > 0);
  assert.equal((await s.call("GET", `/api/v1/timers/${id}`, {})).status, 429, "the API shares the count");
  assert.equal((await s.store.getTimer(id))?.timer.title, "One");
  await s.close();
});

Deno.test("deleting a timer asks first: the box must be ticked", async () => {
  const { s, owner } = await fixture();
  const { timer_id: id } = await s.create({ type: "countdown", duration: 90, title: "Keep me" });
  const path = `/dashboard/timers/${id}`;
  const page = await get(s, owner, path);
  const box = tagOf(page.html, "delete-confirm");
  assert.match(box, /type="checkbox"/);
  assert.match(box, /name="confirm"/);
  assert.match(box, /required/, "the browser asks before sending, without JavaScript");
  assert.match(text(page.html), /I understand the timer, its deliveries and its log are deleted Delete timer/);
  for (const fields of [{}, { confirm: "" }, { confirm: "no" }] as Record<string, string>[]) {
    const r = await post(s, owner, `${path}/delete`, fields);
    assert.equal(r.status, 422, JSON.stringify(fields));
    const refused = tagOf(r.html, "delete-confirm");
    assert.match(refused, /aria-invalid="true"/);
    assert.match(refused, /aria-describedby="delete-confirm-error"/);
    assert.match(refused, /autofocus/, "the cursor goes to the box");
    assert.match(r.html, /<p id="delete-confirm-error" class="field-error" role="alert">Tick the box to confirm/);
    assert.equal((await s.call("GET", `/api/v1/timers/${id}`)).status, 200, "not deleted");
  }
  const lang = await post(s, owner, `${path}/delete`, {});
  assert.match(lang.html, new RegExp(`name="back" value="${path}"`), "the language menu returns to the timer's page");
  const gone = await followFlash(s, owner, await post(s, owner, `${path}/delete`, { confirm: "yes" }));
  assert.match(gone.text, /Timer deleted/);
  assert.equal((await s.call("GET", `/api/v1/timers/${id}`)).status, 404);
  assert.equal((await post(s, owner, `${path}/delete`, {})).status, 404, "a deleted timer is not asked about");
  await s.close();
});

Deno.test("deleting a running rundown's live item from the dashboard is refused as the API refuses it, saying why", async () => {
  const { s, owner } = await fixture();
  const made = await s.call("POST", "/api/v1/rundowns", {
    body: { items: [{ type: "countdown", title: "Live", duration: 90 }, { type: "countdown", duration: 90 }] },
  });
  const [live, later] = made.body.items.map((i: { timer_id: string }) => i.timer_id);
  const rundownId = made.body.rundown_id;
  await s.call("POST", `/api/v1/rundowns/${rundownId}/actions/start`);
  const refused = await post(s, owner, `/dashboard/timers/${live}/delete`, { confirm: "yes" });
  assert.equal(refused.headers.get("location"), `/dashboard/timers/${live}`, "back to the timer's page");
  const page = await followFlash(s, owner, refused);
  assert.match(page.html, /flash--error/);
  assert.match(page.text, new RegExp(`live item of rundown ${rundownId}, so it was not deleted: stop the rundown`));
  assert.equal((await s.call("GET", `/api/v1/timers/${live}`)).status, 200, "not deleted");
  const gone = await followFlash(
    s,
    owner,
    await post(s, owner, `/dashboard/timers/${later}/delete`, { confirm: "yes" }),
  );
  assert.match(gone.text, /Timer deleted/, "an item that is not live goes");
  await s.close();
});

Deno.test("an account moved to a plan without the API drives no timers from the dashboard, but may delete them", async () => {
  const { s, owner } = await fixture();
  const { timer_id: id } = await s.create({ type: "countdown", duration: 90, webhook_url: "https://example.com/h" });
  await setPlan(s.store, s.pro.account.id, "free");
  for (
    const [path, fields] of [[`/dashboard/timers/${id}/action`, { action: "start" }], [
      `/dashboard/timers/${id}/test`,
      {},
    ], [
      "/dashboard/timers",
      { type: "countdown", duration: "60" },
    ], [`/dashboard/timers/${id}/edit`, { title: "Renamed" }]] as const
  ) {
    const r = await post(s, owner, path, fields);
    assert.equal(r.status, 403, path);
    assert.match(text(r.html), /free plan has no timers/, path);
  }
  assert.equal((await s.app.store.getTimer(id))?.timer.state, "idle");
  assert.equal((await s.app.store.getTimer(id))?.timer.title, null, "not renamed");
  assert.equal((await s.app.store.deliveries.deliveryLog(id)).length, 0, "no test was sent");
  const gone = await post(s, owner, `/dashboard/timers/${id}/delete`, { confirm: "yes" });
  assert.equal(gone.status, 303);
  assert.equal(await s.app.store.getTimer(id), null);
  await s.close();
});

Deno.test("test payloads are signed and recorded; a failed delivery can be redelivered", async () => {
  let fail = true;
  const hook = receiver(() => new Response("x", { status: fail ? 500 : 200 }));
  const { s, owner } = await fixture();
  const { timer_id: id } = await s.create({ type: "countdown", duration: 90, webhook_url: hook.url });
  const failed = await followFlash(s, owner, await post(s, owner, `/dashboard/timers/${id}/test`));
  assert.match(failed.text, /The test payload was not delivered: .*500|HTTP 500/);
  assert.match(failed.html, /data-state="failed"/);
  const got = hook.received[0];
  const secret = (await s.store.accounts.get(s.pro.account.id))!.webhook_secrets[0].secret;
  const signed = got.body.replace(/,"signature":"sha256=[0-9a-f]{64}"}$/, "}");
  const expected = `sha256=${createHmac("sha256", secret).update(signed).digest("hex")}`;
  assert.equal(got.headers.get("x-service-signature"), expected);
  assert.equal(got.json.event, "webhook.test");
  fail = false;
  const deliveryId = failed.html.match(/data-delivery="(evt_\w+)" data-state="failed"/)![1];
  const again = await followFlash(
    s,
    owner,
    await post(s, owner, `/dashboard/timers/${id}/deliveries/${deliveryId}/redeliver`),
  );
  assert.match(again.text, /Delivery queued again/);
  const d = (await s.store.getDelivery(id, deliveryId))!.delivery;
  assert.ok(d.state === "pending" || d.state === "succeeded", d.state);
  // Any delivery can be sent again, a succeeded one too: it arrives with the same id.
  await hook.waitFor(2);
  await s.app.scheduler.settled();
  const twice = await followFlash(
    s,
    owner,
    await post(s, owner, `/dashboard/timers/${id}/deliveries/${deliveryId}/redeliver`),
  );
  assert.match(twice.text, /Delivery queued again|an attempt of this delivery is under way/);
  const ok = await followFlash(s, owner, await post(s, owner, `/dashboard/timers/${id}/test`));
  assert.match(ok.text, /Test payload delivered \(HTTP 200\)/);
  assert.match(ok.text, /webhook\.test Succeeded/);
  await hook.close();
  await s.close();
});

Deno.test("rotating shows the new secret once; the previous one signs until it is retired", async () => {
  const { s, owner } = await fixture();
  const old = (await s.store.accounts.get(s.pro.account.id))!.webhook_secrets[0].secret;
  const page = await get(s, owner, "/dashboard/webhooks");
  assert.doesNotMatch(page.html, /whsec_/, "no secret on a plain visit");
  assert.doesNotMatch(page.html, /webhooks\/reveal/, "a secret shown by the CLI is not revealed again");
  assert.match(text(page.html), /No previous secret signs any more/);
  const rotated = await follow(s, owner, await post(s, owner, "/dashboard/webhooks/rotate"));
  const shown = rotated.html.match(/whsec_[A-Za-z0-9+/=]+/)?.[0];
  assert.ok(shown && shown !== old);
  const stored = (await s.store.accounts.get(s.pro.account.id))!.webhook_secrets;
  assert.deepEqual(stored.map((x) => x.secret), [shown, old]);
  const after = await get(s, owner, "/dashboard/webhooks");
  assert.doesNotMatch(after.html, /whsec_/, "shown once");
  assert.match(text(after.html), /Still signs alongside the current one until/);
  const retired = await followFlash(s, owner, await post(s, owner, "/dashboard/webhooks/retire"));
  assert.match(retired.text, /The previous secret no longer signs/);
  assert.match(retired.text, /No previous secret signs any more/);
  await s.close();
});

Deno.test("a sign-up's secret is revealed once; rotating one nobody saw moves both headers at once", async () => {
  const hook = receiver();
  const { s } = await fixture();
  const signUp = async (email: string) => {
    const { account, webhookSecret } = await createBareAccount(s.store, {
      plan: "pro",
      name: email,
      now: s.clock.now(),
    });
    return { account, webhookSecret, who: await signIn(s, account.id, email) };
  };

  // Revealed exactly once, by a POST with the session's token.
  const a = await signUp("first@example.com");
  const page = await get(s, a.who, "/dashboard/webhooks");
  assert.doesNotMatch(page.html, /whsec_/);
  assert.match(text(page.html), /Nobody has seen this secret yet/);
  assert.match(page.html, /action="\/dashboard\/webhooks\/reveal"/);
  const revealed = await follow(s, a.who, await post(s, a.who, "/dashboard/webhooks/reveal"));
  assert.equal(revealed.html.match(/whsec_[A-Za-z0-9+/=]+/)?.[0], a.webhookSecret);
  assert.match(text(revealed.html), /Your signing secret Copy this secret now/);
  assert.equal((await s.store.accounts.get(a.account.id))!.webhook_secrets[0].revealed, true, "recorded");
  const after = await get(s, a.who, "/dashboard/webhooks");
  assert.doesNotMatch(after.html, /whsec_|webhooks\/reveal/, "shown once");
  const twice = await post(s, a.who, "/dashboard/webhooks/reveal");
  assert.equal(twice.status, 409);
  assert.doesNotMatch(twice.html, /whsec_/);
  assert.match(text(twice.html), /already shown once; rotate it/);
  // Someone may verify with it now: a rotation keeps it in the header for the grace period.
  await post(s, a.who, "/dashboard/webhooks/rotate");
  assert.match(text((await get(s, a.who, "/dashboard/webhooks")).html), /Still signs alongside the current one until/);

  // Never revealed: a rotation replaces it in both headers at once (nobody can be verifying with it).
  const b = await signUp("second@example.com");
  const { secret: key } = await createKey(s.store, b.account.id, "ci", s.clock.now());
  const { timer_id: id } = await s.create({ type: "countdown", duration: 90, webhook_url: hook.url }, key);
  const rotated = await follow(s, b.who, await post(s, b.who, "/dashboard/webhooks/rotate"));
  const shown = rotated.html.match(/whsec_[A-Za-z0-9+/=]+/)![0];
  assert.match(text(rotated.html), /Your new signing secret/);
  assert.match(text(rotated.html), /No previous secret signs any more/);
  assert.deepEqual((await s.store.accounts.get(b.account.id))!.webhook_secrets.map((x) => x.secret), [shown]);
  s.clock.advance(1100); // past the senders' one-second account cache
  await followFlash(s, b.who, await post(s, b.who, `/dashboard/timers/${id}/test`));
  const got = hook.received.at(-1)!;
  const serviceOnly = { "x-service-signature": got.headers.get("x-service-signature")! };
  const withTime = { ...serviceOnly, "webhook-timestamp": got.headers.get("webhook-timestamp")! };
  assert.ok(
    await verifyWebhook(got.body, withTime, [shown], { now: s.clock.now() }),
    "the new secret signs the header",
  );
  assert.equal(await verifyWebhook(got.body, withTime, [b.webhookSecret], { now: s.clock.now() }), null);
  assert.equal(got.headers.get("webhook-signature")!.split(" ").length, 1, "one signature: the new secret's");
  await hook.close();
  await s.close();
});

Deno.test("on an https site the flash and language cookies are Secure, like the session's", async () => {
  const site = "https://timers.test";
  for (const [url, secure] of [[site, true], [ORIGIN, false]] as const) {
    const { s, owner } = await fixture({ siteUrl: url });
    const origin = new URL(url).origin;
    const lang = await get(s, owner, "/dashboard/lang?lang=de&back=/dashboard/keys");
    const retire = await post(s, owner, "/dashboard/webhooks/retire", {}, { origin });
    assert.equal(retire.status, 303);
    const flashCookie = retire.headers.get("set-cookie")!;
    assert.match(flashCookie, /dash_flash=/);
    const shown = await get(s, { ...owner, cookie: `${owner.cookie}; ${flashCookie.split(";")[0]}` }, "/dashboard");
    for (
      const [what, cookie] of [
        ["language", lang.headers.get("set-cookie")!],
        ["flash", flashCookie],
        ["flash cleared", shown.headers.get("set-cookie")!],
      ]
    ) {
      assert.equal(/;\s*Secure/i.test(cookie), secure, `${url}: ${what} cookie ${cookie}`);
    }
    await s.close();
  }
});

Deno.test("the live feed sends the account's rows and only them", async () => {
  const { s, owner } = await fixture();
  const mine = await s.create({ type: "countdown", duration: 90, title: "Mine" });
  await s.create({ type: "countdown", duration: 90, title: "Theirs" }, s.other.apiKey);
  const res = await s.app.app.request(`${ORIGIN}/dashboard/live`, { headers: { cookie: owner.cookie } });
  assert.match(res.headers.get("content-type")!, /text\/event-stream/);
  const reader = res.body!.getReader();
  let got = "";
  while (!got.includes("event: timers")) got += new TextDecoder().decode((await reader.read()).value);
  while (!/event: timers\ndata: .*\n\n/.test(got)) got += new TextDecoder().decode((await reader.read()).value);
  await reader.cancel();
  const data = JSON.parse(got.match(/event: timers\ndata: (.*)\n\n/)![1]);
  assert.deepEqual(data.rows.map((r: { id: string }) => r.id), [mine.timer_id]);
  assert.equal(data.rows[0].source.state, "idle");
  // Without a session an EventSource is told so (its page stops asking), not sent to the sign-in page it cannot read.
  const ended = await s.app.app.request(`${ORIGIN}/dashboard/live`, { headers: { accept: "text/event-stream" } });
  assert.equal(ended.status, 200);
  assert.match(ended.headers.get("content-type")!, /text\/event-stream/);
  assert.match(await ended.text(), /retry: 86400000\nevent: signed-out\n/);
  const page = await s.app.app.request(`${ORIGIN}/dashboard/live`);
  assert.equal(page.status, 303, "a browser's page request still goes to sign in");
  await s.close();
});

Deno.test("shutdown ends the live feed, and one asked for meanwhile (the browser reconnects to the next process)", async () => {
  const { s, owner } = await fixture();
  const res = await s.app.app.request(`${ORIGIN}/dashboard/live`, { headers: { cookie: owner.cookie } });
  const reader = res.body!.getReader();
  let got = "";
  while (!got.includes("event: timers")) got += new TextDecoder().decode((await reader.read()).value);
  assert.equal(s.app.streams.size, 1);
  s.app.streams.endAll();
  while (!(await reader.read()).done) { /* the rest of what was sent */ }
  assert.equal(s.app.streams.size, 0);
  // A feed asked for while shutting down ends at once too, rather than holding the process.
  const late = await s.app.app.request(`${ORIGIN}/dashboard/live`, { headers: { cookie: owner.cookie } });
  assert.match(await late.text(), /retry: 2000/);
  await s.close();
});

Deno.test("live feeds and viewers' /live streams share the process's LIVE_STREAMS_MAX places", async () => {
  // Per account a feed is capped, but accounts are cheap: the process's ceiling covers feeds too.
  const { s, owner, stranger } = await fixture({ liveStreamsMax: 2 });
  const t = await s.create({ type: "countdown", duration: 60 });
  const feed = await s.app.app.request(`${ORIGIN}/dashboard/live`, { headers: { cookie: owner.cookie } });
  const live = await s.app.app.request(`${ORIGIN}/live/${t.timer_id}`);
  assert.deepEqual([feed.status, live.status], [200, 200]);
  const overFeed = await s.app.app.request(`${ORIGIN}/dashboard/live`, { headers: { cookie: stranger.cookie } });
  const overLive = await s.app.app.request(`${ORIGIN}/live/${t.timer_id}`);
  assert.deepEqual([overFeed.status, overLive.status], [503, 503]);
  assert.ok(overFeed.headers.get("retry-after"));
  await overFeed.body?.cancel();
  await overLive.body?.cancel();
  await feed.body!.cancel();
  const again = await s.app.app.request(`${ORIGIN}/dashboard/live`, { headers: { cookie: stranger.cookie } });
  assert.equal(again.status, 200, "a closed feed frees its place");
  await again.body!.cancel();
  await live.body!.cancel();
  await s.close();
});

Deno.test("served by Deno.serve, a live feed keeps its place until its connection is done with (left, or ended at shutdown)", async () => {
  const { s, owner } = await fixture({ liveStreamsMax: 1 });
  const open = (env: object) =>
    s.app.app.fetch(new Request(`${ORIGIN}/dashboard/live`, { headers: { cookie: owner.cookie } }), env);
  const a = served();
  const feed = await open(a.env);
  assert.equal(feed.status, 200);
  await feed.body!.cancel(); // left
  const { res: again, connection } = await placeHeldUntilDone(open, a, 503);
  s.app.streams.endAll(); // ended at shutdown
  await again.text();
  const last = await placeHeldUntilDone(open, connection, 503);
  await last.res.text(); // ends at once: shutdown began
  last.connection.done.resolve();
  await s.close();
});

Deno.test("the dashboard speaks the chosen language and falls back to the browser's", async () => {
  const { s, owner } = await fixture();
  const ja = await get(s, owner, "/dashboard/timers", { "accept-language": "ja" });
  assert.match(ja.html, /<html lang="ja"/);
  assert.match(text(ja.html), /タイマーを作成/, "the dashboard's own texts");
  assert.match(text(ja.html), /一時停止中/, "state names from the site's texts");
  const chosen = await get(s, owner, "/dashboard/lang?lang=de&back=/dashboard/keys");
  assert.equal(chosen.status, 303);
  assert.equal(chosen.headers.get("location"), "/dashboard/keys");
  const cookie = chosen.headers.get("set-cookie")!.match(/dash_lang=\w+/)![0];
  // Site-wide (sign-in's /account answers the dashboard's account forms in its language); over plain
  // http the former Path=/dashboard cookie is cleared, so it cannot shadow the choice there.
  assert.ok(chosen.headers.getSetCookie().some((c) => /^dash_lang=de;.*Path=\/(;|$)/.test(c)));
  assert.ok(chosen.headers.getSetCookie().some((c) => /^dash_lang=;.*Max-Age=0.*Path=\/dashboard/.test(c)));
  const de = await get(s, { ...owner, cookie: `${owner.cookie}; ${cookie}` }, "/dashboard", {
    "accept-language": "ja",
  });
  assert.match(de.html, /<html lang="de"/);
  const account = await get(s, { ...owner, cookie: `${owner.cookie}; ${cookie}` }, "/dashboard/account?done=password");
  assert.match(text(account.html), new RegExp(authTexts("de").everywhere_title), "sign-in's sections speak it too");
  assert.match(text(account.html), new RegExp(authTexts("de").password_done));
  const away = await get(s, owner, "/dashboard/lang?lang=fr&back=//evil.test/");
  assert.equal(away.headers.get("location"), "/dashboard");
  // Another site's link or image changes nothing; the dashboard's own form does.
  for (const site of ["cross-site", "same-site"]) {
    const forced = await get(s, owner, "/dashboard/lang?lang=fr", { "sec-fetch-site": site });
    assert.equal(forced.status, 303);
    assert.equal(forced.headers.get("set-cookie"), null, site);
  }
  const own = await get(s, owner, "/dashboard/lang?lang=fr", { "sec-fetch-site": "same-origin" });
  assert.ok(own.headers.getSetCookie().some((c) => c.startsWith("dash_lang=fr")));
  await s.close();
});

Deno.test("plans without limits show as unlimited", async () => {
  const plans = structuredClone(DEFAULT_PLANS);
  const s = await setup({ config: { plans } });
  const who = await signIn(s, s.enterprise.account.id, "big@example.com");
  const t = text((await get(s, who, "/dashboard")).html);
  assert.match(t, /Requests today 0 Unlimited/);
  assert.match(t, /Timers stored 0 Unlimited/);
  await s.close();
});

Deno.test("every language has every dashboard text, with the same placeholders", () => {
  const en = dashTexts("en");
  const names = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort().join(",");
  for (const lang of LANGS) {
    const own = TRANSLATIONS[lang] as Record<string, string>;
    for (const [k, v] of Object.entries(en)) {
      if (lang === "en" || k === "dt_http") continue;
      assert.ok(own[k], `${lang} lacks ${k}`);
      assert.equal(names(own[k]), names(v), `${lang}.${k} keeps the placeholders of "${v}"`);
    }
  }
});

Deno.test("the timer page shows zone, overtime, added time and message, and adjusts and sets messages", async () => {
  const { s, owner, stranger } = await fixture();
  const { timer_id: id } = await s.create({ type: "countdown", duration: 90, warn_at: 30, overtime: true });
  await s.act(id, "start");
  let page = await get(s, owner, `/dashboard/timers/${id}`);
  assert.match(page.html, /<dd data-zone="normal">Normal<\/dd>/);
  const added = await followFlash(s, owner, await post(s, owner, `/dashboard/timers/${id}/adjust`, { seconds: "-60" }));
  assert.match(added.text, /Take away 1 minute/);
  assert.match(added.html, /<dd data-zone="warning">Warning<\/dd>/);
  assert.match(added.html, /data-added="-60"/);
  assert.equal((await s.call("GET", `/api/v1/timers/${id}`)).body.added_seconds, -60);
  const bad = await followFlash(s, owner, await post(s, owner, `/dashboard/timers/${id}/adjust`, { seconds: "0" }));
  assert.match(bad.html, /flash--error/);
  assert.match(bad.text, /seconds must be a non-zero integer/);
  const shown = await followFlash(
    s,
    owner,
    await post(s, owner, `/dashboard/timers/${id}/message`, { text: EVIL, color: "red", flash: "2", do: "show" }),
  );
  assert.match(shown.text, /Message shown/);
  assert.ok(!shown.html.includes(EVIL), "the message is escaped");
  assert.deepEqual(
    (await s.call("GET", `/api/v1/timers/${id}`)).body.message,
    { text: EVIL, color: "red", flash: 2, blackout: false, set_at: new Date(s.clock.now()).toISOString() },
  );
  const refused = await followFlash(s, owner, await post(s, owner, `/dashboard/timers/${id}/message`, { do: "show" }));
  assert.match(refused.text, /text is required unless blackout/);
  await followFlash(s, owner, await post(s, owner, `/dashboard/timers/${id}/message`, { do: "clear" }));
  assert.equal((await s.call("GET", `/api/v1/timers/${id}`)).body.message, null);
  s.clock.advance(40_000);
  page = await get(s, owner, `/dashboard/timers/${id}`);
  assert.match(page.html, /<dd data-zone="overtime">Overtime<\/dd>/);
  assert.match(text(page.html), /Overtime 10 seconds/);
  // Another account's timer is not found, and no token skips the same-origin check.
  assert.equal((await post(s, stranger, `/dashboard/timers/${id}/adjust`, { seconds: "60" })).status, 404);
  assert.equal((await post(s, owner, `/dashboard/timers/${id}/adjust`, { seconds: "60" }, { csrf: null })).status, 403);
  assert.equal((await s.call("GET", `/api/v1/timers/${id}`)).body.added_seconds, -60);
  await s.close();
});
