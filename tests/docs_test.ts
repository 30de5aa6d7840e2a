/**
 * /docs: the interactive reference renders offline in headless Chromium from the service's own
 * assets, under a strict CSP, with every operation and webhook of the document; the guides render.
 */
import assert from "node:assert/strict";
import { axeViolations, launch, offline, serve, shot, watchErrors } from "./browser/harness.ts";
import { DOCS_CSP, GUIDES } from "../routes/docs.ts";
import { setup } from "./helpers.ts";
import { verifyWebhook } from "../sdk/src/webhooks.ts";

Deno.test("/docs and the guides carry a strict CSP; the renderer is served by the service with caching", async () => {
  const s = await setup();
  const page = await s.app.app.request("http://timers.test/docs");
  assert.equal(page.status, 200);
  const csp = page.headers.get("content-security-policy")!;
  assert.equal(csp, DOCS_CSP);
  assert.match(csp, /default-src 'none'/);
  assert.match(csp, /script-src 'self'(;|$)/);
  const html = await page.text();
  assert.doesNotMatch(html, /https?:\/\//, "no absolute URL: nothing loads from elsewhere");
  const src = /<script src="(\/docs\/assets\/scalar-[\d.]+\.js)">/.exec(html)![1];
  const asset = await s.app.app.request(`http://timers.test${src}`);
  assert.equal(asset.status, 200);
  assert.match(asset.headers.get("content-type")!, /^text\/javascript/);
  assert.match(asset.headers.get("cache-control")!, /immutable/);
  const raw = new Uint8Array(await asset.arrayBuffer());
  assert.ok(raw.byteLength > 1_000_000);
  // Gzipped to a browser that takes it: a third of the size, the same script.
  const zipped = await s.app.app.request(`http://timers.test${src}`, { headers: { "accept-encoding": "gzip, br" } });
  assert.equal(zipped.headers.get("content-encoding"), "gzip");
  assert.equal(zipped.headers.get("vary"), "Accept-Encoding");
  const body = new Uint8Array(await zipped.arrayBuffer());
  assert.ok(body.byteLength < raw.byteLength / 2, `${body.byteLength} bytes gzipped of ${raw.byteLength}`);
  const unzipped = new Uint8Array(
    await new Response(new Blob([body]).stream().pipeThrough(new DecompressionStream("gzip"))).arrayBuffer(),
  );
  assert.deepEqual(unzipped, raw);
  for (const g of GUIDES) {
    const r = await s.app.app.request(`http://timers.test/docs/guides/${g.slug}`);
    assert.equal(r.status, 200, g.slug);
    assert.equal(r.headers.get("content-security-policy"), DOCS_CSP);
    const h1 = /<h1[^>]*>([^<]*)<\/h1>/.exec(await r.text())?.[1];
    assert.equal(h1?.replaceAll("&#39;", "'").replaceAll("&amp;", "&"), g.title, g.slug);
  }
  const hooks = await (await s.app.app.request("http://timers.test/docs/guides/webhooks")).text();
  for (const v of ["sha256=17bb4d909c279bcddc362bbfd98f97cf81b14f3235f03c7c163d3eb58dda8336", "1795348810"]) {
    assert.ok(hooks.includes(v), v);
  }
  assert.match(hooks, /language-python/);
  assert.match(hooks, /import http from &quot;node:http&quot;|import http from "node:http"/);
  assert.equal((await s.app.app.request("http://timers.test/docs/guides/nothing")).status, 404);
  await s.close();
});

Deno.test("the widget guide names the framing headers the widget sends", async () => {
  const s = await setup();
  const widget = await s.app.app.request("http://timers.test/widget?type=countdown&duration=60");
  await widget.body?.cancel();
  assert.equal(widget.headers.get("x-frame-options"), null);
  assert.doesNotMatch(widget.headers.get("content-security-policy")!, /frame-ancestors/);
  const guide = await (await s.app.app.request("http://timers.test/docs/guides/widget")).text();
  assert.doesNotMatch(guide, /and <code>frame-ancestors \*<\/code>, so/, "the widget sends no frame-ancestors at all");
  assert.match(guide, /no <code>frame-ancestors<\/code>/);
  await s.close();
});

Deno.test("the quick-start guide names every operationId of the document", async () => {
  const s = await setup();
  const doc = await (await s.app.app.request("http://timers.test/api/v1/openapi.json")).json();
  const guide = await (await s.app.app.request("http://timers.test/docs/guides/quick-start")).text();
  const ids = Object.values(doc.paths).flatMap((item) => Object.values(item as object).map((op) => op.operationId));
  for (const id of ids) assert.match(guide, new RegExp(`<code>${id}</code>`), id);
  await s.close();
});

Deno.test({
  name: "/docs renders offline in Chromium with every operation and webhook (screenshot in tests/artifacts/)",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const srv = await serve();
    const browser = await launch();
    try {
      const doc = (await srv.api("GET", "/openapi.json")).body;
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      const errors = watchErrors(page);
      // Offline: anything not served by the service itself is refused and recorded.
      const outside = await offline(page, srv.url);
      const violations: string[] = [];
      page.on("console", (m) => {
        if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
      });
      await page.goto(`${srv.url}/docs`, { waitUntil: "load" });
      for (const [path, item] of Object.entries(doc.paths) as [string, Record<string, { summary: string }>][]) {
        for (const op of Object.values(item)) {
          await page.getByText(op.summary, { exact: false }).first().waitFor({ timeout: 20_000 }).catch(() => {
            throw new Error(`operation "${op.summary}" (${path}) is not shown`);
          });
        }
      }
      const text = await page.evaluate(() => document.body.innerText);
      for (const name of Object.keys(doc.webhooks)) assert.ok(text.includes(name), `webhook ${name} is not listed`);
      assert.ok(text.includes("Timer Service API"));
      await shot(page, "docs-reference");
      const guide = await context.newPage();
      await guide.goto(`${srv.url}/docs/guides/webhooks`);
      await shot(guide, "docs-guide-webhooks", { fullPage: true });
      // A phone's width: code blocks scroll sideways, so a keyboard must reach them.
      await guide.setViewportSize({ width: 360, height: 640 });
      for (const g of GUIDES) {
        await guide.goto(`${srv.url}/docs/guides/${g.slug}`);
        assert.deepEqual(await axeViolations(guide), [], `/docs/guides/${g.slug}`);
      }
      assert.deepEqual(outside, [], "nothing was fetched from outside the service");
      assert.deepEqual(violations, [], "no CSP violation");
      assert.deepEqual(errors.filter((e) => !/Content Security Policy/i.test(e)), []);
    } finally {
      await browser.close();
      await srv.close();
    }
  },
});

Deno.test("the webhooks guide's test vector verifies, with the SDK and with the guide's own Python", async () => {
  const md = await Deno.readTextFile(new URL("../docs/guides/webhooks.md", import.meta.url));
  const body = /```text\n(\{.*\})\n```/.exec(md)![1];
  const vector = /```\n(X-Service-Signature: .*?)\n```/s.exec(md)![1];
  const headers = Object.fromEntries(vector.split("\n").map((l) => l.split(": ")));
  const secret = /Secret `(whsec_[^`]+)`/.exec(md)![1];
  const at = Date.parse(/delivered at\s+`([^`]+)`/.exec(md)![1]);
  const event = await verifyWebhook(body, headers, [secret], { now: at });
  assert.equal(event?.event, "timer.completed");
  assert.equal(await verifyWebhook(body, headers, [secret], { now: at + 600_000 }), null);

  const python = /```python\n(.*?)```/s.exec(md)![1];
  const script = `${python}
import json, sys
h = json.loads(sys.argv[1])
raw = sys.argv[2].encode()
print(json.dumps([verify(raw, h, [sys.argv[3]], 10**10), verify(raw, h, ["whsec_" + "A" * 44], 10**10),
  verify(raw.replace(b"Tea", b"Tee"), h, [sys.argv[3]], 10**10), verify(raw, h, [sys.argv[3]])]))
`;
  const out = await new Deno.Command("python3", {
    args: ["-c", script, JSON.stringify(headers), body, secret],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  // Right secret; wrong secret; tampered body; the default tolerance refuses a delivery this old.
  assert.deepEqual(JSON.parse(new TextDecoder().decode(out.stdout)), [true, false, false, false]);
});
