/** Joining: the header that leads to sign-up from every public page, and the dashboard's way back to the docs. */
import assert from "node:assert/strict";
import { accountsWorld, formBrowser } from "./helpers.ts";

const SITE = "https://timers.test";
const PASSWORD = "a long and unusual passphrase 42";

/** The links of the page's site header, as `text -> href`. */
function headerLinks(html: string): Record<string, string> {
  const header = /<header class="site-header">(.*?)<\/header>/s.exec(html);
  assert.ok(header, "the page has the site header");
  const out: Record<string, string> = {};
  for (const m of header[1].matchAll(/<a [^>]*href="([^"]*)"[^>]*>(.*?)<\/a>/gs)) {
    out[m[2].replace(/<[^>]+>/g, "").trim()] = m[1];
  }
  return out;
}

type Browser = ReturnType<typeof formBrowser>;

/** A page as a browser asks for it (Accept: text/html), with the browser's cookies. */
async function page(
  w: { app: { app: { request: (u: string, i: RequestInit) => Response | Promise<Response> } } },
  b: Browser,
  path: string,
) {
  const cookie = [...b.jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const res = await w.app.app.request(`${SITE}${path}`, { headers: { accept: "text/html", cookie } });
  return { status: res.status, text: await res.text() };
}

Deno.test("every public page has the header: home, Docs, Holidays, Sign in, Sign up", async () => {
  const w = await accountsWorld();
  try {
    const b = formBrowser(w.app.app, SITE);
    for (
      const path of [
        "/",
        "/docs",
        "/docs/guides/quick-start",
        "/events",
        "/no-such-page",
        "/signup",
        "/login",
        "/reset",
      ]
    ) {
      const r = await page(w, b, path);
      assert.deepEqual(headerLinks(r.text), {
        "Timer Service": "/",
        Docs: "/docs",
        Holidays: "/events",
        "Sign in": "/login",
        "Sign up": "/signup",
      }, path);
    }
    // In the page's language, which the home and holiday links keep.
    const de = await b.request("GET", "/?lang=de");
    assert.deepEqual(Object.keys(headerLinks(de.text)), [
      "Timer Service",
      "Doku",
      "Feiertage",
      "Anmelden",
      "Registrieren",
    ]);
    assert.equal(headerLinks(de.text).Feiertage, "/events?lang=de");
  } finally {
    await w.close();
  }
});

Deno.test("signed in, the header offers the dashboard instead; the dashboard links the docs", async () => {
  const w = await accountsWorld();
  try {
    const b = formBrowser(w.app.app, SITE);
    const up = await b.form("/signup", "/signup", { email: "ada@example.com", password: PASSWORD });
    assert.equal(up.status, 303);
    for (const path of ["/", "/docs", "/events", "/no-such-page"]) {
      const links = headerLinks((await page(w, b, path)).text);
      assert.equal(links.Dashboard, "/dashboard", path);
      assert.equal(links["Sign in"], undefined, path);
    }
    const dash = await b.request("GET", "/dashboard");
    assert.match(dash.text, /<a class="dash-docs" href="\/docs">API docs<\/a>/);
  } finally {
    await w.close();
  }
});

Deno.test("the overview's curl examples name this site and the newest key's start", async () => {
  const w = await accountsWorld({ signupPlan: "pro" });
  try {
    const b = formBrowser(w.app.app, SITE);
    await b.form("/signup", "/signup", { email: "ada@example.com", password: PASSWORD });
    const before = (await b.request("GET", "/dashboard")).text;
    assert.match(before, /curl -s -X POST https:\/\/timers\.test\/api\/v1\/timers/);
    assert.match(before, /Bearer YOUR_API_KEY/);
    await b.form("/dashboard/keys", "/dashboard/keys", { name: "first" });
    w.clock.advance(1000);
    await b.form("/dashboard/keys", "/dashboard/keys", { name: "second" });
    const keys = await w.store.accounts.listKeys((await w.store.users.byEmail("ada@example.com"))!.account_id);
    const newest = keys.find((k) => k.name === "second")!;
    const after = (await b.request("GET", "/dashboard")).text;
    assert.ok(after.includes(`Bearer ${newest.prefix}…`), "the newest key's prefix is in the examples");
    assert.ok(!after.includes(keys.find((k) => k.name === "first")!.prefix + "…"), "not an older key's");
  } finally {
    await w.close();
  }
});

Deno.test("SIGNUP_PLAN unset: the first sign-up is the administrator's on enterprise and is told so; later ones get free", async () => {
  const w = await accountsWorld({ signupPlan: undefined });
  try {
    const ada = formBrowser(w.app.app, SITE, "203.0.113.7");
    assert.match((await ada.request("GET", "/signup")).text, /the first one is its administrator's/);
    await ada.form("/signup", "/signup", { email: "ada@example.com", password: PASSWORD });
    const first = (await w.store.users.byEmail("ada@example.com"))!;
    assert.equal((await w.store.getAccount(first.account_id))!.plan, "enterprise");
    const overview = (await ada.request("GET", "/dashboard")).text;
    assert.match(overview, /You created the first account on this service/);
    assert.match(overview, /Your plan is set by the administrator of this service/);
    assert.doesNotMatch(overview, /operator/i);
    // The administrator can create a timer from the dashboard at once.
    const made = await ada.form("/dashboard/timers", "/dashboard/timers", { type: "countdown", duration: "60" });
    assert.ok(made.status < 400, `timer created (${made.status})`);

    const bob = formBrowser(w.app.app, SITE, "203.0.113.8");
    assert.doesNotMatch((await bob.request("GET", "/signup")).text, /administrator/, "only while nobody has signed up");
    await bob.form("/signup", "/signup", { email: "bob@example.com", password: PASSWORD });
    const second = (await w.store.users.byEmail("bob@example.com"))!;
    assert.equal((await w.store.getAccount(second.account_id))!.plan, "free");
    assert.doesNotMatch((await bob.request("GET", "/dashboard")).text, /You created the first account/);
  } finally {
    await w.close();
  }
});

Deno.test("two sign-ups at once on a new instance: exactly one becomes the administrator", async () => {
  const w = await accountsWorld({ signupPlan: undefined });
  try {
    const people = ["a", "b", "c", "d"].map((n, i) => ({ n, b: formBrowser(w.app.app, SITE, `203.0.113.${20 + i}`) }));
    const csrfs = await Promise.all(people.map((p) => p.b.csrfOf("/signup")));
    await Promise.all(
      people.map((p, i) =>
        p.b.request("POST", "/signup", { form: { _csrf: csrfs[i], email: `${p.n}@example.com`, password: PASSWORD } })
      ),
    );
    const plans = [];
    for (const p of people) {
      const u = (await w.store.users.byEmail(`${p.n}@example.com`))!;
      plans.push((await w.store.getAccount(u.account_id))!.plan);
    }
    assert.deepEqual(plans.toSorted(), ["enterprise", "free", "free", "free"]);
  } finally {
    await w.close();
  }
});

Deno.test("SIGNUP_PLAN set: every sign-up gets it, the first one too", async () => {
  const w = await accountsWorld({ signupPlan: "pro" });
  try {
    const b = formBrowser(w.app.app, SITE);
    assert.doesNotMatch((await b.request("GET", "/signup")).text, /administrator/);
    await b.form("/signup", "/signup", { email: "ada@example.com", password: PASSWORD });
    const u = (await w.store.users.byEmail("ada@example.com"))!;
    assert.equal((await w.store.getAccount(u.account_id))!.plan, "pro");
    assert.equal(await w.store.accounts.administrator(), null);
  } finally {
    await w.close();
  }
});

Deno.test("a plan's refusal has its own page: what the plan includes and whom to ask, never the CSRF page", async () => {
  const w = await accountsWorld({ signupPlan: "free", operatorContact: "billing@timers.example" });
  try {
    const b = formBrowser(w.app.app, SITE);
    await b.form("/signup", "/signup", { email: "ada@example.com", password: PASSWORD });
    const r = await b.form("/dashboard/timers", "/dashboard/timers", { type: "countdown", duration: "60" });
    assert.equal(r.status, 403);
    assert.match(r.text, /<h1>Not included in your plan<\/h1>/);
    assert.doesNotMatch(r.text, /out of date or came from another site/);
    assert.match(r.text, /What the free plan includes:/);
    assert.match(r.text, /Timers: not included/);
    assert.match(r.text, /API requests: 30 a minute, 1,000 a day/);
    assert.match(r.text, /set by the administrator of this service/);
    assert.match(r.text, /<a href="mailto:billing@timers.example">billing@timers.example<\/a>/);
    // The timers page offers no form to fill in vain: the plan's note instead.
    const timers = (await b.request("GET", "/dashboard/timers")).text;
    assert.doesNotMatch(timers, /action="\/dashboard\/timers" class="new-timer"/);
    assert.match(timers, /What the free plan includes: Timers: not included/);
    // The overview names the contact too.
    assert.match((await b.request("GET", "/dashboard")).text, /mailto:billing@timers.example/);
    // A form from elsewhere still gets the CSRF page.
    const stale = await b.request("POST", "/dashboard/timers", { form: { _csrf: "x".repeat(43), type: "countdown" } });
    assert.equal(stale.status, 403);
    assert.match(stale.text, /out of date or came from another site/);
  } finally {
    await w.close();
  }
});

Deno.test("after sign-up: check your email, the link is in the server's log, resend is throttled and reload-safe", async () => {
  const w = await accountsWorld();
  try {
    const b = formBrowser(w.app.app, SITE);
    const up = await b.form("/signup", "/signup", { email: "ada@example.com", password: PASSWORD });
    assert.equal(up.headers.get("location"), "/signup/check");
    const check = await b.request("GET", "/signup/check");
    assert.equal(check.status, 200);
    assert.match(check.text, /<h1>Check your email<\/h1>/);
    assert.match(check.text, /We sent a link to ada@example.com/);
    assert.match(
      check.text,
      /SMTP_URL is unset\): the link is in the server&#39;s log|SMTP_URL is unset\): the link is in the server's log/,
    );
    const mailed = () => w.logs.filter((l) => String(l.link ?? "").includes("/verify?token=")).length;
    assert.equal(mailed(), 1, "the sign-up mailed one link");

    const csrf = /name="_csrf" value="([^"]+)"/.exec(check.text)![1];
    const again = await b.request("POST", "/signup/resend", { form: { _csrf: csrf } });
    assert.equal(again.status, 303, "answered with a redirect: a reload of the page sends nothing");
    assert.equal(again.headers.get("location"), "/signup/check?sent=1");
    assert.equal(mailed(), 2);
    assert.match((await b.request("GET", "/signup/check?sent=1")).text, /A new link is on its way to ada@example.com/);
    await b.request("GET", "/signup/check?sent=1");
    assert.equal(mailed(), 2, "reloading the page sends nothing");

    const soon = await b.request("POST", "/signup/resend", { form: { _csrf: csrf } });
    assert.equal(soon.headers.get("location"), "/signup/check?wait=60");
    assert.equal(mailed(), 2, "a second resend within the minute sends nothing");
    assert.match((await b.request("GET", "/signup/check?wait=60")).text, /another link in 60 seconds/);
    w.clock.advance(61_000);
    await b.request("POST", "/signup/resend", { form: { _csrf: csrf } });
    assert.equal(mailed(), 3, "after the wait it sends again");

    // The latest link confirms the address; the page then says so.
    const token = w.lastToken("/verify");
    await b.request("POST", "/verify", { form: { _csrf: await b.csrfOf(`/verify?token=${token}`), token } });
    assert.match((await b.request("GET", "/signup/check")).text, /Your email is confirmed/);

    // Without a session the page asks to sign in; without the session's token nothing is sent.
    const stranger = formBrowser(w.app.app, SITE, "203.0.113.99");
    assert.match((await stranger.request("GET", "/signup/check")).headers.get("location") ?? "", /^\/login\?next=/);
  } finally {
    await w.close();
  }
});

Deno.test("with SMTP_URL set the page does not send people to the server's log", async () => {
  const sent: string[] = [];
  const w = await accountsWorld();
  try {
    // The mailer SMTP_URL would pick, as a test double that records.
    Object.assign(w.app.auth.mailer, {
      kind: "smtp",
      send: (m: { to: string }) => (sent.push(m.to), Promise.resolve()),
    });
    const b = formBrowser(w.app.app, SITE);
    await b.form("/signup", "/signup", { email: "ada@example.com", password: PASSWORD });
    const check = (await b.request("GET", "/signup/check")).text;
    assert.match(check, /Check your email/);
    assert.doesNotMatch(check, /server's log|server&#39;s log/);
    assert.deepEqual(sent, ["ada@example.com"]);
  } finally {
    await w.close();
  }
});

/** The one secret-looking string of a kind on a page (API key, signing secret, control token). */
const found = (html: string, re: RegExp) => html.match(re)?.[0] ?? null;

Deno.test("Post/Redirect/Get: each dashboard POST redirects; its secret shows on the next GET only, reloads repeat nothing", async () => {
  const w = await accountsWorld({ signupPlan: "pro" });
  try {
    const b = formBrowser(w.app.app, SITE);
    await b.form("/signup", "/signup", { email: "ada@example.com", password: PASSWORD });
    const account = (await w.store.users.byEmail("ada@example.com"))!.account_id;

    // A key: POST → 303; the GET shows it; a reload shows it no more and makes no second key.
    const made = await b.form("/dashboard/keys", "/dashboard/keys", { name: "ci" });
    assert.equal(made.status, 303);
    assert.equal(made.headers.get("location"), "/dashboard/keys");
    assert.equal(found(made.text, /tsk_\w+/), null, "the redirect carries no secret");
    const shown = found((await b.request("GET", "/dashboard/keys")).text, /tsk_[A-Za-z0-9]{20,}/);
    assert.ok(shown, "the key is on the page the redirect leads to");
    assert.equal(
      found((await b.request("GET", "/dashboard/keys")).text, /tsk_[A-Za-z0-9]{20,}/),
      null,
      "a reload shows it no more",
    );
    assert.equal((await w.store.accounts.listKeys(account)).length, 1, "and made no second key");
    const raw: string[] = [];
    for await (const e of w.kv.list({ prefix: [] })) raw.push(JSON.stringify(e.value));
    assert.ok(!raw.join().includes(shown!), "the key was never stored as it is");

    // The signing secret: revealed, then rotated; each shown by one GET, and a reload rotates nothing.
    assert.equal((await b.form("/dashboard/webhooks", "/dashboard/webhooks/reveal", {})).status, 303);
    assert.ok(found((await b.request("GET", "/dashboard/webhooks")).text, /whsec_[\w+/=]+/));
    assert.equal(found((await b.request("GET", "/dashboard/webhooks")).text, /whsec_[\w+/=]+/), null);
    const rotated = await b.form("/dashboard/webhooks", "/dashboard/webhooks/rotate", {});
    assert.equal(rotated.status, 303);
    const secrets = (await w.store.accounts.get(account))!.webhook_secrets.map((x) => x.secret);
    const page = (await b.request("GET", "/dashboard/webhooks")).text;
    assert.equal(found(page, /whsec_[\w+/=]+/), secrets[0]);
    assert.match(page, /Your new signing secret/);
    await b.request("GET", "/dashboard/webhooks");
    assert.deepEqual(
      (await w.store.accounts.get(account))!.webhook_secrets.map((x) => x.secret),
      secrets,
      "no second rotation",
    );

    // A timer: created once, its control link shown once on its page, with the flash.
    const timer = await b.form("/dashboard/timers", "/dashboard/timers", {
      type: "countdown",
      duration: "60",
      title: "Tea",
    });
    assert.equal(timer.status, 303);
    const where = timer.headers.get("location")!;
    assert.match(where, /^\/dashboard\/timers\/tmr_\w+$/);
    const detail = (await b.request("GET", where)).text;
    assert.match(detail, /Timer “Tea” created/);
    const control = found(detail, /\/c\/tmr_\w+#tct_\w+/);
    assert.ok(control);
    const again = (await b.request("GET", where)).text;
    assert.equal(found(again, /#tct_\w+/), null);
    assert.doesNotMatch(again, /Timer “Tea” created/);
    assert.equal((await w.store.listTimers(account, { limit: 10, now: w.clock.now() })).timers.length, 1);

    // Replacing the control link: the same.
    const replaced = await b.form(where, `${where}/control`, {});
    assert.equal(replaced.status, 303);
    const fresh = found((await b.request("GET", where)).text, /\/c\/tmr_\w+#tct_\w+/);
    assert.ok(fresh && fresh !== control);
    assert.equal(found((await b.request("GET", where)).text, /#tct_\w+/), null);
  } finally {
    await w.close();
  }
});

Deno.test("a held result is its session's only, waits at most five minutes, and needs the session's cookie to read", async () => {
  const w = await accountsWorld({ signupPlan: "pro" });
  try {
    const b = formBrowser(w.app.app, SITE);
    await b.form("/signup", "/signup", { email: "ada@example.com", password: PASSWORD });
    // Another browser of the same person.
    const other = formBrowser(w.app.app, SITE, "203.0.113.50");
    await other.form("/login", "/login", { email: "ada@example.com", password: PASSWORD });

    await b.form("/dashboard/keys", "/dashboard/keys", { name: "one" });
    assert.equal(found((await other.request("GET", "/dashboard/keys")).text, /tsk_[A-Za-z0-9]{20,}/), null);
    assert.ok(
      found((await b.request("GET", "/dashboard/keys")).text, /tsk_[A-Za-z0-9]{20,}/),
      "still there for its own",
    );

    // Another page's GET leaves it waiting for its own page.
    await b.form("/dashboard/keys", "/dashboard/keys", { name: "two" });
    await b.request("GET", "/dashboard/webhooks");
    assert.ok(found((await b.request("GET", "/dashboard/keys")).text, /tsk_[A-Za-z0-9]{20,}/));

    await b.form("/dashboard/keys", "/dashboard/keys", { name: "three" });
    w.clock.advance(5 * 60_000);
    assert.equal(found((await b.request("GET", "/dashboard/keys")).text, /tsk_[A-Za-z0-9]{20,}/), null, "expired");
  } finally {
    await w.close();
  }
});

Deno.test("a widget of parameters only and a timer created without a theme look alike", async () => {
  const { setup } = await import("./helpers.ts");
  const { WIDGET_DEFAULTS } = await import("../lib/display.ts");
  const s = await setup();
  try {
    const t = await s.create({ type: "countdown", duration: 60 });
    assert.equal(t.theme, WIDGET_DEFAULTS.theme);
    const html = async (path: string) => await (await s.app.app.request(`http://timers.test${path}`)).text();
    const theme = (page: string) => /data-theme="(\w+)"/.exec(page)?.[1];
    assert.equal(theme(await html(`/widget?id=${t.timer_id}`)), theme(await html("/widget?duration=60")));
    assert.equal(theme(await html(`/v/${t.timer_id}`)), "dark");
  } finally {
    await s.close();
  }
});

Deno.test("the guides of docs/guides/ are served at /docs/guides/*, linking each other and SECURITY.md on the site", async () => {
  const w = await accountsWorld();
  try {
    const b = formBrowser(w.app.app, SITE);
    const index = (await b.request("GET", "/docs/guides")).text;
    for (const slug of ["quick-start", "api", "holidays", "dashboard", "self-hosting", "webhook-delivery", "pages"]) {
      assert.match(index, new RegExp(`href="/docs/guides/${slug}"`), slug);
    }
    const dash = (await b.request("GET", "/docs/guides/dashboard")).text;
    assert.match(dash, /<h1[^>]*>The dashboard<\/h1>/);
    assert.match(dash, /href="\/docs\/guides\/webhook-delivery#retries"/, "a .md link becomes the guide's page");
    assert.match(dash, /href="\/docs\/security"/);
    const security = await b.request("GET", "/docs/security");
    assert.equal(security.status, 200);
    assert.match(security.text, /<h1[^>]*>Security<\/h1>/);
    assert.match((await b.request("GET", "/docs/guides/holidays")).text, /upcoming/);
  } finally {
    await w.close();
  }
});

Deno.test("dashboard: dates carry UTC for the reader's zone, one language menu, a timer's deliveries ten a page", async () => {
  const { setup, receiver } = await import("./helpers.ts");
  const { Sessions } = await import("../lib/accounts/sessions.ts");
  const { Hono } = await import("hono");
  const hook = receiver();
  const s = await setup();
  try {
    // A signed-in owner of the pro account.
    const user = {
      id: "usr_test0000000000",
      account_id: s.pro.account.id,
      email: "owner@example.com",
      password_hash: null,
      email_verified_at: null,
      created_at: s.clock.now(),
    };
    await s.store.users.create(user);
    const sessions = new Sessions({ store: s.store, config: s.config, now: s.clock.now });
    const res = await new Hono().get("/", async (c) => (await sessions.start(c, user), c.text("ok"))).request("/");
    await res.body?.cancel();
    const cookie = res.headers.get("set-cookie")!.split(";")[0];
    const get = async (path: string) =>
      await (await s.app.app.request(`http://timers.test${path}`, { headers: { cookie } })).text();

    const t = await s.create({ type: "countdown", duration: 600, title: "Tea", webhook_url: hook.url });
    for (let i = 0; i < 6; i++) {
      await s.act(t.timer_id, "start");
      await s.act(t.timer_id, "reset");
    }
    const page = await get(`/dashboard/timers/${t.timer_id}`);
    assert.match(
      page,
      /<time datetime="2026-11-22T12:00:00.000Z" title="Nov 22, 2026, 12:00:00 PM UTC" data-local>Nov 22, 2026, 12:00:00 PM UTC<\/time>/,
    );
    assert.match(page, /data-island="LocalTimes"/, "the island that shows them in the reader's zone");
    assert.equal((page.match(/class="delivery"/g) ?? []).length, 10, "ten deliveries a page");
    assert.match(page, /href="\/dashboard\/timers\/tmr_\w+\?cursor=[^"]+">Older deliveries</);
    const older = /href="(\/dashboard\/timers\/tmr_\w+\?cursor=[^"]+)">Older deliveries/.exec(page)![1];
    assert.equal(((await get(older.replaceAll("&amp;", "&"))).match(/class="delivery"/g) ?? []).length, 2);
    assert.match(page, /<details class="attempts-box"|Not attempted yet/);

    // The language: one control, a link per language, working without JavaScript.
    assert.doesNotMatch(page, /<select name="lang"/);
    const menu = /<details class="dash-lang">(.*?)<\/details>/s.exec(page)![1];
    assert.equal((menu.match(/<a /g) ?? []).length, 7);
    assert.match(menu, /href="\/dashboard\/lang\?lang=de&amp;back=%2Fdashboard%2Ftimers%2Ftmr_\w+"/);
  } finally {
    await s.close();
    await hook.close();
  }
});
