/**
 * What a widget page loads: the leanest island that shows what the full one would, the style
 * sheets it uses, and (with the bundles built) under 15 KB of JavaScript and CSS gzipped, as
 * bench/widget.ts counts them.
 */
import assert from "node:assert/strict";
import { pageWeight } from "../bench/widget.ts";
import { build } from "../scripts/build.ts";
import { setup } from "./helpers.ts";

async function page(s: Awaited<ReturnType<typeof setup>>, path: string) {
  const res = await s.app.app.request(`http://timers.test${path}`);
  assert.equal(res.status, 200, path);
  const html = await res.text();
  return {
    island: /data-island="(\w+)"/.exec(html)?.[1],
    css: [...html.matchAll(/href="\/static\/([\w-]+\.css)\?/g)].map((m) => m[1]),
    scripts: [...html.matchAll(/<script[^>]*src="\/static\/build\/([^"?]+)/g)].map((m) => m[1]),
  };
}

Deno.test("each widget page takes the island and the style sheets it needs, no more", async () => {
  const s = await setup();
  try {
    const t = await s.create({ type: "countdown", duration: 300, title: "Talk" });
    const ev = await s.create({ type: "event", target_date: "2026-12-24T18:00:00Z", title: "Eve" });
    const cases: [string, string, string[]][] = [
      ["/widget?type=countdown&duration=300", "WidgetPlain", ["widget.css"]],
      ["/widget?duration=60&theme=light&lang=de", "WidgetPlain", ["widget.css"]],
      [`/widget?id=${t.timer_id}`, "WidgetLive", ["widget.css"]],
      // Parts only the full island has: the time of day, an event's date, the viewer.
      ["/widget?duration=60&clock=1", "Widget", ["widget.css", "screens.css"]],
      [`/widget?id=${ev.timer_id}`, "Widget", ["widget.css", "face-more.css"]],
      [`/v/${t.timer_id}`, "Widget", ["widget.css", "face-more.css", "show.css", "screens.css"]],
      // An interval's phase and round are styled by face-more.css.
      ["/widget?type=interval&work=30&rest=10&rounds=3", "WidgetPlain", ["widget.css", "face-more.css"]],
      // The speaker's message and a delayed display are parts of the full island too.
      [`/widget?id=${t.timer_id}&messages=1`, "Widget", ["widget.css", "show.css"]],
      ["/widget?duration=60&delay=5", "Widget", ["widget.css"]],
      // View parameters drawn by the style sheet alone keep the lean island.
      ["/widget?duration=60&mirror=h", "WidgetPlain", ["widget.css", "screens.css"]],
    ];
    for (const [path, island, css] of cases) {
      const r = await page(s, path);
      assert.equal(r.island, island, path);
      assert.deepEqual(r.css, css, path);
      assert.equal(r.scripts.length, 1, `${path}: one script`);
    }
  } finally {
    await s.close();
  }
});

Deno.test("the default widget and a stored timer's widget load under 15 KB of JS and CSS, gzipped", async () => {
  await build({ ifStale: true });
  const s = await setup({ realTime: true });
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, (req) => s.app.app.fetch(req));
  try {
    const base = `http://127.0.0.1:${server.addr.port}`;
    const t = await s.create({ type: "countdown", duration: 300, title: "Talk" });
    for (const path of ["/widget?duration=60", "/widget?type=countdown&duration=300", `/widget?id=${t.timer_id}`]) {
      const w = await pageWeight(base, path);
      assert.ok(w.found && w.status === 200, path);
      assert.deepEqual(w.failed, [], path);
      assert.equal(w.unresolved_dynamic_imports, 0, `${path}: every import is counted`);
      assert.ok(w.total_gzip < 15_000, `${path}: ${w.total_gzip} B gzipped (${JSON.stringify(w.assets)})`);
    }
  } finally {
    await server.shutdown();
    await s.close();
  }
});
