import assert from "node:assert/strict";
import { asset, fnv1a, island, islandHtml, readManifest, renderPage } from "./islands.tsx";

function Hello(p: { title: string; n: number }) {
  return <p class="hello">{p.title} {p.n}</p>;
}
const HelloIsland = island("Hello", Hello);
const EVIL = "</script><script>alert(1)</script>";

/** The value of the first `data-props` attribute, un-escaped as a browser would. */
function propsOf(html: string): unknown {
  const m = /data-props="([^"]*)"/.exec(html);
  assert.ok(m, "the island root carries its props");
  const text = m[1].replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
  return JSON.parse(text);
}

Deno.test("a page without islands ships no JavaScript", () => {
  const html = renderPage(<main>{EVIL}</main>, { lang: "en", title: EVIL, css: [] });
  assert.doesNotMatch(html, /<script/i);
  assert.doesNotMatch(html, /modulepreload/);
  assert.ok(html.startsWith('<!doctype html><html lang="en">'));
  assert.ok(html.includes("<title>&lt;/script>&lt;script>alert(1)&lt;/script></title>"));
  assert.ok(html.includes("<main>&lt;/script>&lt;script>alert(1)&lt;/script></main>"));
});

Deno.test("an island renders on the server inside its marked root, and the page loads the boot module", () => {
  const html = renderPage(
    <main>
      <HelloIsland title="Hi" n={3} />
    </main>,
    { lang: "en", title: "t", css: [] },
  );
  assert.match(html, /<div data-island="Hello" data-props="[^"]*"><p class="hello">Hi 3<\/p><\/div>/);
  assert.deepEqual(propsOf(html), { title: "Hi", n: 3 });
  const scripts = html.match(/<script[^>]*>/g) ?? [];
  assert.equal(scripts.length, 1);
  assert.match(scripts[0], /type="module" src="\/static\/build\/lib\/boot\.js\?v=\w+"/);
  assert.match(html, /<link rel="modulepreload" href="\/static\/build\/islands\/Hello\.js\?v=\w+"/);
});

Deno.test("a hostile title in island props is escaped and cannot break out", () => {
  const title = `${EVIL}"><img src=x onerror=alert(1)>&amp;`;
  const html = renderPage(
    <main>
      <HelloIsland title={title} n={1} />
    </main>,
    { lang: "en", title, css: [] },
  );
  assert.doesNotMatch(html, /<script>alert/);
  assert.doesNotMatch(html, /<img src=x/);
  assert.equal((html.match(/<script/g) ?? []).length, 1, "only the boot module");
  assert.deepEqual(propsOf(html), { title, n: 1 }, "the props survive the round trip exactly");
});

Deno.test("island names must be file names", () => {
  assert.throws(() => island("../evil", Hello), /PascalCase/);
});

Deno.test("static assets get a content version", () => {
  assert.match(asset("widget.css"), /^\/static\/widget\.css\?v=[0-9a-f]{8}$/);
  assert.equal(asset("missing.css"), "/static/missing.css");
  assert.equal(fnv1a(new TextEncoder().encode("")), "811c9dc5");
});

Deno.test("islandHtml renders as island() does, memoises the inner HTML by key, and re-serialises props", () => {
  let renders = 0;
  function Counted(p: { title: string; n: number }) {
    renders++;
    return <p class="hello">{p.title}</p>;
  }
  const viaTree = renderPage(
    <main>
      <HelloIsland title="Hi" n={3} />
    </main>,
    { lang: "en", title: "t", css: [] },
  );
  const viaString = renderPage({
    html: `<main>${islandHtml("Hello", Hello, { title: "Hi", n: 3 })}</main>`,
    islands: ["Hello"],
  }, {
    lang: "en",
    title: "t",
    css: [],
  });
  assert.equal(viaString, viaTree);
  const a = islandHtml("Counted", Counted, { title: EVIL, n: 1 }, "k1");
  const b = islandHtml("Counted", Counted, { title: EVIL, n: 2 }, "k1");
  assert.equal(renders, 1, "one render per key");
  assert.deepEqual(propsOf(a), { title: EVIL, n: 1 });
  assert.deepEqual(propsOf(b), { title: EVIL, n: 2 }, "props are the request's own");
  assert.doesNotMatch(b, /<script>/);
  islandHtml("Counted", Counted, { title: "x", n: 1 }, "k2");
  assert.equal(renders, 2);
});

Deno.test("a page whose only island has a solo bundle loads that one script, no boot module, no preload", () => {
  const m = readManifest();
  if (!m?.solo?.Widget) return; // not built (scripts/build.ts writes solo/islands/Widget.js)
  const html = renderPage({ html: '<div data-island="Widget" data-props="{}"></div>', islands: ["Widget"] }, {
    lang: "en",
    title: "t",
    css: [],
  });
  const scripts = html.match(/<script[^>]*>/g) ?? [];
  assert.equal(scripts.length, 1);
  assert.match(scripts[0], new RegExp(`type="module" src="/static/build/solo/islands/Widget\\.js\\?v=${m.version}"`));
  assert.doesNotMatch(html, /modulepreload|boot\.js/);
  // With another island beside it, the page takes the boot module and the split bundles.
  const two = renderPage({ html: "", islands: ["Widget", "Stage"] }, { lang: "en", title: "t", css: [] });
  assert.match(two, /lib\/boot\.js/);
  assert.match(two, /modulepreload" href="\/static\/build\/islands\/Widget\.js/);
});
