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
