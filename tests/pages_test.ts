/** The pages over HTTP (no browser): headers, server-rendered time, fallbacks, 404s and escaping. */
import assert from "node:assert/strict";
import { setPlan } from "../lib/accounts/accounts.ts";
import { setup } from "./helpers.ts";

const EVIL_SCRIPT = "</script><script>alert(1)</script>";
const EVIL_ATTR = '"><img src=x onerror=alert(1)>';

async function page(s: Awaited<ReturnType<typeof setup>>, path: string, headers: Record<string, string> = {}) {
  const res = await s.app.app.request(`http://timers.test${path}`, { headers });
  return { status: res.status, headers: res.headers, html: await res.text() };
}

const scripts = (html: string) => (html.match(/<script\b/g) ?? []).length;
/** Visible text, roughly: tags dropped, entities decoded. */
const text = (html: string) =>
  html.replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/g, "").replace(/<[^>]+>/g, " ")
    .replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");

Deno.test("the widget is embeddable anywhere: no frame-ancestors, no X-Frame-Options, scripts only from self", async () => {
  const s = await setup();
  const r = await page(s, "/widget?duration=300");
  assert.equal(r.status, 200);
  assert.equal(r.headers.get("x-frame-options"), null);
  const csp = r.headers.get("content-security-policy")!;
  // Even `frame-ancestors *` refuses opaque embedders (file:// pages, sandboxed iframes).
  assert.doesNotMatch(csp, /frame-ancestors/);
  assert.match(csp, /script-src 'self'/);
  assert.doesNotMatch(csp, /script-src[^;]*unsafe-inline/);
  assert.equal(r.headers.get("cache-control"), "no-store");
  assert.match(r.headers.get("content-type")!, /text\/html; charset=utf-8/);
  await s.close();
});

Deno.test("the first HTML of a widget already shows the time, the state and the defaults", async () => {
  const s = await setup();
  const r = await page(s, "/widget?duration=300&title=Tea");
  const t = text(r.html);
  assert.match(t, /Tea/);
  assert.match(t, /Running/);
  assert.match(t, /05:00/);
  assert.match(r.html, /<html lang="en" data-theme="dark" style="--primary:#6C63FF;--on-primary:#000000">/);
  // The lean island of a widget configured by its parameters (components/widget_face.tsx widgetIsland).
  assert.match(r.html, /data-island="WidgetPlain"/);
  assert.match(t, /Timer Service/, "the brand is shown by default");
  assert.match(r.html, /aria-live="polite"/);
  assert.match(r.html, /role="timer"/);
  // A title with a right-to-left override or other control characters is shown without them.
  const spoof = await page(s, `/widget?duration=300&title=${encodeURIComponent("Tea\u202e\u0000gnp.exe")}`);
  assert.match(text(spoof.html), /Teagnp\.exe/);
  assert.ok(!spoof.html.includes("\u202e") && !spoof.html.includes("\u0000"));
  await s.close();
});

Deno.test("each widget type renders its own face", async () => {
  const s = await setup();
  const ev = text(
    (await page(s, "/widget?type=event&target_date=2026-11-23T12:00:00Z&timezone=Asia/Tokyo&lang=ja")).html,
  );
  assert.match(ev, /1 日 00:00:00/);
  assert.match(ev, /2026年11月23日/, "the date in its zone and language");
  const noDate = text((await page(s, "/widget?type=event&target_date=2026-11-23T12:00:00Z&show_date=0")).html);
  assert.doesNotMatch(noDate, /November 23/);
  const iv = text((await page(s, "/widget?type=interval&work=30&rest=15&rounds=4&lang=de")).html);
  assert.match(iv, /Training/);
  assert.match(iv, /Runde 1 von 4/);
  assert.match(iv, /00:30/);
  const big = text((await page(s, "/widget?duration=93784")).html);
  assert.match(big, /1 day 02:03:04/);
  const past = text((await page(s, "/widget?type=event&target_date=2020-01-01")).html);
  assert.match(past, /Time's up/);
  assert.match(past, /00:00/);
  await s.close();
});

Deno.test("invalid widget values fall back to defaults and never break the page", async () => {
  const s = await setup();
  const r = await page(
    s,
    "/widget?duration=60&theme=neon&primary_color=red;}body{display:none&lang=xx&rounds=-3&timezone=Nowhere",
  );
  assert.equal(r.status, 200);
  assert.match(r.html, /data-theme="dark"/);
  assert.match(r.html, /--primary:#6C63FF/);
  assert.match(r.html, /lang="en"/);
  assert.doesNotMatch(r.html, /display:none/);
  const light = await page(s, "/widget?duration=60&theme=light&primary_color=00aa55&lang=fr");
  assert.match(light.html, /<html lang="fr" data-theme="light" style="--primary:#00AA55;/);
  assert.match(text(light.html), /En cours/);
  await s.close();
});

Deno.test("a missing required input is one inline line and no script", async () => {
  const s = await setup();
  for (
    const [q, msg] of [
      ["", /Add a duration in seconds/],
      ["type=event", /Add a target date/],
      ["type=event&target_date=2026-02-30&lang=es", /Añade una fecha objetivo/],
      ["duration=abc&title=Hi", /Add a duration/],
    ] as const
  ) {
    const r = await page(s, `/widget?${q}`);
    assert.equal(r.status, 200, q);
    assert.match(text(r.html), msg, q);
    assert.equal(scripts(r.html), 0, `${q}: no JavaScript`);
  }
  await s.close();
});

Deno.test("a live widget, viewer and control page render the stored timer at the server's instant", async () => {
  const s = await setup();
  const t = await s.create({ type: "countdown", duration: 60, title: "Stand-up", theme: "light", color: "00AA55" });
  const idle = await page(s, `/widget?id=${t.timer_id}`);
  assert.match(text(idle.html), /Stand-up Not started 01:00/);
  assert.match(idle.html, /data-theme="light" style="--primary:#00AA55;/, "the timer's own look");
  await s.act(t.timer_id, "start");
  s.clock.advance(10_500);
  for (const path of [`/widget?id=${t.timer_id}`, `/v/${t.timer_id}`, `/c/${t.timer_id}`]) {
    const r = await page(s, path);
    assert.equal(r.status, 200, path);
    assert.match(text(r.html), /Running 00:50/, path);
    assert.equal(scripts(r.html), 1, `${path}: only the boot module`);
  }
  const dark = await page(s, `/widget?id=${t.timer_id}&theme=dark&primary_color=112233`);
  assert.match(dark.html, /data-theme="dark" style="--primary:#112233;/, "parameters override the timer's look");
  // The server render is reused within a second, but never the instant it was rendered at,
  // and the next second renders the next time.
  const at = (html: string) => Number(/&quot;at&quot;:(\d+)/.exec(html)![1]);
  s.clock.advance(100);
  const a = await page(s, `/widget?id=${t.timer_id}`);
  s.clock.advance(300);
  const b = await page(s, `/widget?id=${t.timer_id}`);
  assert.equal(at(b.html) - at(a.html), 300);
  assert.match(text(a.html), /Running 00:50/);
  assert.match(text(b.html), /Running 00:50/);
  s.clock.advance(700);
  assert.match(text((await page(s, `/widget?id=${t.timer_id}`)).html), /Running 00:49/);
  await s.close();
});

Deno.test("titles take their direction from their own text (dir=auto): a right-to-left title reads from its end", async () => {
  const s = await setup();
  const title = "ישיבת צוות"; // Hebrew: "team meeting"
  const t = await s.create({ type: "countdown", duration: 60, title });
  const paths = [
    `/widget?id=${t.timer_id}`,
    `/v/${t.timer_id}`,
    `/c/${t.timer_id}`,
    `/widget?duration=60&title=${encodeURIComponent(title)}`,
    `/widget?type=event&title=${encodeURIComponent(title)}`, // the one-line problem page
  ];
  for (const path of paths) {
    const r = await page(s, path);
    assert.match(r.html, new RegExp(`<h1 class="face-title" dir="auto">${title}</h1>`), path);
  }
  await s.close();
});

Deno.test("the viewer and control pages speak the browser's language unless lang says otherwise", async () => {
  const s = await setup();
  const t = await s.create({ type: "countdown", duration: 60 });
  assert.match(text((await page(s, `/v/${t.timer_id}`, { "accept-language": "ko-KR,ko;q=0.9" })).html), /시작 전/);
  assert.match(text((await page(s, `/c/${t.timer_id}?lang=fr`, { "accept-language": "ko" })).html), /Démarrer/);
  await s.close();
});

Deno.test("the control page is never framed, sends no referrer, and the server never sees the token", async () => {
  const s = await setup();
  const t = await s.create({ type: "countdown", duration: 60 });
  const token = t.control_url.split("#")[1];
  const r = await page(s, `/c/${t.timer_id}`);
  assert.match(r.headers.get("content-security-policy")!, /frame-ancestors 'none'/);
  assert.equal(r.headers.get("referrer-policy"), "no-referrer");
  assert.ok(!r.html.includes(token));
  assert.match(text(r.html), /Checking the control link/);
  // The five actions, four adjusts and the message box's two.
  assert.equal((r.html.match(/<button [^>]*disabled/g) ?? []).length, 11, "every button waits for the token check");
  assert.equal((r.html.match(/<button /g) ?? []).length, 11);
  await s.close();
});

Deno.test("unknown and expired timers get a friendly 404 page without script", async () => {
  const s = await setup();
  const t = await s.create({ type: "countdown", duration: 60 });
  s.clock.advance(31 * 86400_000);
  for (
    const path of ["/widget?id=tmr_nope", `/widget?id=${t.timer_id}`, "/v/tmr_nope", "/c/tmr_nope", "/widget?id=../x"]
  ) {
    const r = await page(s, path);
    assert.equal(r.status, 404, path);
    assert.match(r.headers.get("content-type")!, /text\/html/);
    assert.match(text(r.html), /Timer not found/, path);
    assert.equal(scripts(r.html), 0, path);
  }
  assert.match(text((await page(s, "/widget?id=tmr_nope&lang=zh")).html), /找不到计时器/);
  assert.doesNotMatch(
    (await page(s, "/widget?id=tmr_nope")).headers.get("content-security-policy")!,
    /frame-ancestors/,
  );
  // A widget in a sandboxed iframe learns that its timer is gone from this answer: CORS lets it read it.
  const live = await page(s, "/live/tmr_nope");
  assert.equal(live.status, 404);
  assert.equal(live.headers.get("access-control-allow-origin"), "*");
  await s.close();
});

Deno.test("an unknown address is an HTML page for browsers; the API and other clients keep the JSON envelope", async () => {
  const s = await setup();
  const browser = { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" };
  for (const path of ["/nope", "/nope/deeper?x=1", "/docs/guides/nothing", "/healthz/"]) {
    const r = await page(s, path, browser);
    assert.equal(r.status, 404, path);
    assert.match(r.headers.get("content-type")!, /^text\/html; charset=utf-8/, path);
    assert.match(r.headers.get("content-security-policy")!, /script-src 'self'/, path);
    assert.match(r.html, /^<!doctype html><html lang="en">/, path);
    assert.match(r.html, /<title>Page not found · Timer Service<\/title>/, path);
    assert.match(r.html, /<a class="button" href="\/">Go to the home page<\/a>/, path);
    assert.equal(scripts(r.html), 0, path);
  }
  // In the browser's language, or ?lang=.
  const ja = await page(s, "/nope", { ...browser, "accept-language": "ja,en;q=0.5" });
  assert.match(ja.html, /<html lang="ja">/);
  assert.match(ja.html, /<title>ページが見つかりません · Timer Service<\/title>/);
  assert.match((await page(s, "/nope?lang=de", browser)).html, /<html lang="de">[\s\S]*Seite nicht gefunden/);
  // The API answers JSON whatever the client accepts; so does every address for a client that is no browser.
  for (
    const [path, accept] of [
      ["/api/v1/nope", browser.accept],
      ["/api/nope", "text/html"],
      ["/nope", "*/*"],
      [
        "/nope",
        "application/json",
      ],
      ["/nope", "text/html;q=0, application/json"],
      ["/nope", ""],
      // Only the first ranges are read: a header's worth of them is not searched for text/html.
      ["/nope", `${"a/b;q=0.1,".repeat(6000)}text/html`],
    ]
  ) {
    const r = await page(s, path, accept ? { accept } : {});
    assert.equal(r.status, 404, `${path} ${accept}`);
    assert.match(r.headers.get("content-type")!, /^application\/json/, `${path} ${accept}`);
    assert.deepEqual(JSON.parse(r.html), { error: { code: 404, message: `no route for GET ${path}` } });
  }
  assert.match((await page(s, "/nope")).headers.get("vary") ?? "", /accept/i);
  // A wrong method on a route of the API's list stays a 405 envelope for a browser too.
  const res = await s.app.app.request("http://timers.test/healthz", { method: "POST", headers: browser });
  assert.equal(res.status, 405);
  assert.equal((await res.json()).error.code, 405);
  await s.close();
});

Deno.test("the site's icon: pages link an SVG favicon and /favicon.ico answers it", async () => {
  const s = await setup();
  const ico = await s.app.app.request("http://timers.test/favicon.ico");
  assert.equal(ico.status, 200);
  assert.equal(ico.headers.get("content-type"), "image/svg+xml");
  const svg = await ico.text();
  assert.match(svg, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  for (const path of ["/", "/events", "/widget?duration=60", "/login", "/nope", "/docs/guides"]) {
    const r = await page(s, path, { accept: "text/html" });
    const href = /<link rel="icon" href="([^"]+)" type="image\/svg\+xml"\/?>/.exec(r.html)?.[1];
    assert.ok(href, `${path} links the icon`);
    assert.match(href, /^\/static\/favicon\.svg\?v=[0-9a-f]{8}$/, path);
    const linked = await s.app.app.request(`http://timers.test${href.replaceAll("&amp;", "&")}`);
    assert.equal(linked.status, 200, path);
    assert.equal(linked.headers.get("content-type"), "image/svg+xml");
    assert.equal(await linked.text(), svg);
  }
  await s.close();
});

Deno.test("show_brand=0 is honoured only for live timers of paid plans", async () => {
  const s = await setup();
  const brand = (html: string) => /class="face-brand"/.test(html);
  assert.ok(brand((await page(s, "/widget?duration=60&show_brand=0")).html), "no timer, no paying owner");
  const t = await s.create({ type: "countdown", duration: 60 });
  assert.ok(brand((await page(s, `/widget?id=${t.timer_id}`)).html));
  assert.ok(!brand((await page(s, `/widget?id=${t.timer_id}&show_brand=0`)).html), "pro plan");
  await setPlan(s.store, s.pro.account.id, "free");
  assert.ok(brand((await page(s, `/widget?id=${t.timer_id}&show_brand=0`)).html), "the owner is on the free plan now");
  await setPlan(s.store, s.pro.account.id, "enterprise");
  assert.ok(!brand((await page(s, `/widget?id=${t.timer_id}&show_brand=0`)).html), "enterprise plan");
  await s.close();
});

Deno.test("hostile titles render as text everywhere", async () => {
  const s = await setup();
  for (const title of [EVIL_SCRIPT, EVIL_ATTR]) {
    const t = await s.create({ type: "countdown", duration: 60, title });
    for (
      const path of [
        `/widget?duration=60&title=${encodeURIComponent(title)}`,
        `/widget?id=${t.timer_id}`,
        `/v/${t.timer_id}`,
        `/c/${t.timer_id}`,
        `/widget?title=${encodeURIComponent(title)}`,
      ]
    ) {
      const r = await page(s, path);
      assert.doesNotMatch(r.html, /<script>alert/, path);
      assert.doesNotMatch(r.html, /<img src=x/, path);
      assert.ok(scripts(r.html) <= 1, path);
      assert.ok(text(r.html).includes(title), `${path} shows the title as text`);
    }
  }
  await s.close();
});

Deno.test("the home page explains the service and carries the embed builder", async () => {
  const s = await setup();
  const r = await page(s, "/");
  assert.equal(r.status, 200);
  assert.match(text(r.html), /Timers you can embed anywhere/);
  assert.match(r.html, /data-island="EmbedBuilder"/);
  assert.ok(
    r.html.includes("&lt;iframe src=&quot;http://timers.test/widget?duration=300&amp;amp;title=Coffee+break&quot;"),
  );
  assert.match(r.headers.get("content-security-policy")!, /frame-src 'self'/);
  await s.close();
});

Deno.test("the home page speaks the browser's language, with a visible switch to the seven", async () => {
  const s = await setup();
  const ja = await page(s, "/", { "accept-language": "ja-JP,ja;q=0.9,en;q=0.8" });
  assert.match(ja.html, /<html lang="ja">/);
  assert.equal(ja.headers.get("vary"), "accept-language, cookie");
  const t = text(ja.html);
  assert.match(t, /どのページにも埋め込めて/);
  assert.match(t, /埋め込みビルダー/);
  assert.doesNotMatch(t, /Timers you can embed anywhere|Embed builder|For developers/);
  // The builder speaks it too, and its widget starts in it.
  assert.match(ja.html, /コーヒーブレイク/);
  assert.match(ja.html, /&quot;lang&quot;:&quot;ja&quot;/);
  const links = [
    ...ja.html.matchAll(/<a href="\/\?lang=(\w+)" hreflang="\w+" lang="\w+"( aria-current="page")?>([^<]+)<\/a>/g),
  ];
  assert.deepEqual(links.map((m) => m[1]), ["en", "zh", "ja", "es", "fr", "de", "ko"]);
  assert.deepEqual(links.filter((m) => m[2]).map((m) => m[3]), ["日本語"]);
  // ?lang= wins over the header; unknown languages fall back to English.
  assert.match((await page(s, "/?lang=de", { "accept-language": "ja" })).html, /<html lang="de">/);
  assert.match(text((await page(s, "/?lang=de")).html), /Einbettungs-Generator/);
  assert.match((await page(s, "/", { "accept-language": "pt-BR" })).html, /<html lang="en">/);
  for (const lang of ["zh", "es", "fr", "ko"]) {
    const r = await page(s, `/?lang=${lang}`);
    assert.doesNotMatch(text(r.html), /Timers you can embed anywhere|Embed builder|For developers/, lang);
  }
  await s.close();
});

Deno.test("static files are served with long caching when versioned, and never outside static/", async () => {
  const s = await setup();
  const css = await s.app.app.request("http://timers.test/static/widget.css?v=abc");
  assert.equal(css.status, 200);
  assert.equal(css.headers.get("content-type"), "text/css; charset=utf-8");
  assert.equal(css.headers.get("cache-control"), "public, max-age=31536000, immutable");
  // Widgets in sandboxed iframes and file:// pages (opaque origins) fetch module scripts with CORS.
  assert.equal(css.headers.get("access-control-allow-origin"), "*");
  await css.body?.cancel();
  const plain = await s.app.app.request("http://timers.test/static/widget.css");
  assert.equal(plain.headers.get("cache-control"), "public, max-age=300");
  const original = await plain.text();
  // Served without comments and indentation; the rules are intact.
  assert.doesNotMatch(original, /\/\*|\n {2}/);
  assert.match(original, /@container \(max-height:139px\)\{/);
  const zipped = await s.app.app.request("http://timers.test/static/widget.css", {
    headers: { "accept-encoding": "gzip, br" },
  });
  assert.equal(zipped.headers.get("content-encoding"), "gzip");
  assert.equal(zipped.headers.get("vary"), "accept-encoding");
  const unzipped = await new Response(zipped.body!.pipeThrough(new DecompressionStream("gzip"))).text();
  assert.equal(unzipped, original);
  for (
    const path of [
      "/static/../deno.json",
      "/static/%2e%2e/deno.json",
      "/static/%252e%252e/deno.json",
      "/static/",
      "/static/.build-lock",
    ]
  ) {
    const r = await s.app.app.request(`http://timers.test${path}`);
    assert.equal(r.status, 404, path);
    await r.body?.cancel();
  }
  await s.close();
});
