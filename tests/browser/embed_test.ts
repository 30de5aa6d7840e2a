/**
 * The widget embedded as people embed it: in an http:// page of another origin, in a local
 * file:// page and in sandboxed iframes (opaque origins), at 100×200, 200×100, 320×240 and
 * 600×600, in all seven languages and the three themes. Every frame must hydrate (its scripts
 * load), live frames must get their stream, and nothing may overflow or be smaller than 10 px.
 */
import assert from "node:assert/strict";
import type { Frame, Page } from "playwright-core";
import { LANGS } from "../../lib/i18n.ts";
import { ensureBuilt, launch, serve, shot, watchErrors, yearsAhead } from "./harness.ts";

const SIZES = [[100, 200], [200, 100], [320, 240], [600, 600]] as const;
const THEMES = ["dark", "light", "auto"] as const;

/** A title as long as people write them, in each language. */
const TITLES: Record<string, string> = {
  en: "New Year's Eve party on the roof",
  zh: "屋顶上的新年前夜派对",
  ja: "屋上での大晦日パーティー",
  es: "Fiesta de Nochevieja en la azotea",
  fr: "Fête du Nouvel An sur le toit",
  de: "Silvesterfeier auf der Dachterrasse",
  ko: "옥상에서 열리는 새해 전야 파티",
};

/** The parameter-only widgets of one language: every type, with its longest clock. */
function paramWidgets(lang: string, theme: string): string[] {
  const title = encodeURIComponent(TITLES[lang]);
  const common = `lang=${lang}&theme=${theme}`;
  return [
    `duration=35999&title=${title}&${common}`,
    `type=event&target_date=${yearsAhead(5)}-12-31T23:00&timezone=America/Los_Angeles&title=${title}&${common}`,
    `type=interval&work=45&rest=15&rounds=12&title=${title}&primary_color=E4572E&${common}`,
    `type=event&${common}`,
  ];
}

interface Cell {
  src: string;
  label: string;
  /** How the frame is embedded: "sandbox" gets sandbox="allow-scripts"; "nested" sits in a sandboxed srcdoc page. */
  how: "plain" | "sandbox" | "nested";
}

function hostHtml(title: string, w: number, h: number, cells: Cell[]): string {
  const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
  const frame = (c: Cell) => {
    const style = `width:${w}px;height:${h}px;border:0;display:block`;
    if (c.how === "nested") {
      const inner = `<body style="margin:0"><iframe src="${esc(c.src)}" style="${style}" title="w"></iframe></body>`;
      return `<iframe sandbox="allow-scripts" srcdoc="${
        esc(inner)
      }" style="width:${w}px;height:${h}px;border:0" title="${esc(c.label)}"></iframe>`;
    }
    const sandbox = c.how === "sandbox" ? ' sandbox="allow-scripts"' : "";
    return `<iframe${sandbox} src="${esc(c.src)}" style="${style}" title="${esc(c.label)}"></iframe>`;
  };
  return `<!doctype html><html><head><meta charset="utf-8"><title>${esc(title)}</title>
<style>body{margin:8px;font:11px sans-serif;background:#888}
.grid{display:flex;flex-wrap:wrap;gap:6px}.cell{display:flex;flex-direction:column;gap:2px}</style></head>
<body><div class="grid">${
    cells.map((c) => `<div class="cell">${frame(c)}<span>${esc(c.label)}</span></div>`).join("\n")
  }</div></body></html>`;
}

/** What is wrong with the face in a frame: overflow, clipping, tiny text, no time. */
function inspect(frame: Frame) {
  return frame.evaluate(() => {
    const out: string[] = [];
    const doc = document.documentElement;
    const vw = doc.clientWidth, vh = doc.clientHeight;
    if (doc.scrollWidth > vw || doc.scrollHeight > vh) out.push(`page scrolls ${doc.scrollWidth}x${doc.scrollHeight}`);
    const face = document.querySelector<HTMLElement>(".face");
    if (!face) return { problems: ["no .face"], hms: null, sync: null, state: null };
    const visible = (el: Element) => {
      const r = el.getBoundingClientRect();
      const cs = getComputedStyle(el);
      return r.width > 0 && r.height > 0 && cs.visibility !== "hidden" && !el.closest(".sr-only,[hidden]");
    };
    const name = (el: Element) => el.className || el.tagName.toLowerCase();
    // A long title may end in an ellipsis in the two smallest frames; elsewhere it shows whole.
    const small = vw < 150 || vh < 150;
    for (const el of [face, ...face.querySelectorAll<HTMLElement>("*")]) {
      if (!visible(el)) continue;
      // Text kept for screen readers only (clipped to 1 px) is not shown.
      if (el.getBoundingClientRect().width <= 1 && el.getBoundingClientRect().height <= 1) continue;
      const clamped = small && el.classList.contains("face-title");
      const cs = getComputedStyle(el);
      const r = el.getBoundingClientRect();
      if (r.left < -0.5 || r.top < -0.5 || r.right > vw + 0.5 || r.bottom > vh + 0.5) {
        out.push(`${name(el)} outside ${vw}x${vh}: ${[r.left, r.top, r.right, r.bottom].map(Math.round)}`);
      }
      if (
        cs.display !== "inline" && (el.scrollWidth > el.clientWidth + 0.5 || el.scrollHeight > el.clientHeight + 0.5)
      ) {
        // Only boxes that clip or scroll their content hide something.
        if (el === face || (cs.overflow !== "visible" && !clamped)) {
          out.push(
            `${name(el)} overflows: ${el.scrollWidth}x${el.scrollHeight} in ${el.clientWidth}x${el.clientHeight}`,
          );
        }
      }
      const ownText = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent!.trim() !== "");
      if (ownText && parseFloat(cs.fontSize) < 10) out.push(`${name(el)} text at ${cs.fontSize}`);
    }
    // Text clipped by an ellipsis or line clamp counts as cut off too.
    for (const el of face.querySelectorAll<HTMLElement>(".face-time, .face-time *")) {
      const r = el.getBoundingClientRect();
      if (r.left < 0 || r.right > vw || r.top < 0 || r.bottom > vh) out.push(`time cut: ${name(el)}`);
    }
    const hms = face.querySelector(".face-hms, .face-problem")?.textContent ?? null;
    if (!visible(face.querySelector(".face-hms, .face-problem")!)) out.push("no visible time");
    return { problems: out, hms, sync: face.dataset.sync ?? null, state: face.dataset.state ?? null };
  });
}

const widgetFrames = (page: Page) => page.frames().filter((f) => /\/widget\?/.test(f.url()));

Deno.test("the widget embeds anywhere, legible at every size, language and theme", async (t) => {
  await ensureBuilt();
  const s = await serve();
  // The embedding pages come from another origin, as on a customer's site.
  const hosts = new Map<string, string>();
  const host = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, (req) => {
    const body = hosts.get(new URL(req.url).pathname);
    return new Response(body ?? "not found", { status: body ? 200 : 404, headers: { "content-type": "text/html" } });
  });
  const hostUrl = `http://localhost:${host.addr.port}`;
  const dir = await Deno.makeTempDir({ prefix: "embed-test-" });
  const browser = await launch();
  const timers = {
    countdown: await s.createTimer({ type: "countdown", duration: 7200, title: "Live countdown" }),
    event: await s.createTimer({ type: "event", target_date: `${yearsAhead(5)}-01-01T00:00:00Z`, title: "Live event" }),
    interval: await s.createTimer({ type: "interval", work: 30, rest: 10, rounds: 5, title: "Live interval" }),
  };
  const paused = await s.createTimer({ type: "countdown", duration: 5400, title: "Paused" });
  for (const id of [timers.countdown.timer_id, timers.interval.timer_id, paused.timer_id]) {
    assert.equal((await s.api("PATCH", `/timers/${id}/state`, { action: "start" })).status, 200);
  }
  assert.equal((await s.api("PATCH", `/timers/${paused.timer_id}/state`, { action: "pause" })).status, 200);

  /** Loads a host page, waits for every widget frame to be live, and checks each one. */
  async function check(name: string, url: string, expected: number, w: number, h: number) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const errors = watchErrors(page);
    // Failed loads are named by URL here (the console only says "Failed to load resource").
    const failed: string[] = [];
    page.on("response", (res) => {
      if (res.status() >= 400 && !res.url().includes("id=tmr_missing")) failed.push(`${res.status()} ${res.url()}`);
    });
    page.on("requestfailed", (req) => failed.push(`${req.failure()?.errorText} ${req.url()}`));
    await page.goto(url);
    await page.waitForLoadState("load");
    // Frames below the fold are not painted: make the whole grid the viewport.
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    await page.setViewportSize({ width: 1280, height: Math.min(height, 8000) });
    const deadline = Date.now() + 15_000;
    let frames = widgetFrames(page);
    while (frames.length < expected && Date.now() < deadline) {
      await page.waitForTimeout(100);
      frames = widgetFrames(page);
    }
    assert.equal(frames.length, expected, `${name}: widget frames`);
    const first = new Map<Frame, string | null>();
    for (const f of frames) {
      await f.waitForLoadState("load");
      const hasIsland = await f.evaluate(() => !!document.querySelector("[data-island]"));
      if (!hasIsland) continue;
      if (f.url().includes("id=")) {
        // A live widget: its stream (an EventSource, CORS mode) delivered a snapshot.
        await f.waitForSelector('.face[data-sync="live"]', { timeout: 10_000 }).catch(() => {
          throw new Error(`${name}: no live stream in ${f.url()}`);
        });
      }
      first.set(f, (await inspect(f)).hms);
    }
    // Running clocks tick: the scripts loaded and hydrated in every kind of frame.
    await page.waitForTimeout(1100);
    const failures: string[] = [];
    for (const f of frames) {
      const r = await inspect(f);
      const where = `${name} ${w}x${h} ${decodeURIComponent(f.url().replace(/^.*\/widget\?/, ""))}`;
      if (r.problems.length) failures.push(`${where}: ${r.problems.join("; ")}`);
      if (first.has(f) && r.state === "running" && r.hms === first.get(f)) failures.push(`${where}: not ticking`);
    }
    await shot(page, name);
    const real = [...errors.filter((e) => !/AudioContext|Failed to load resource/.test(e)), ...failed];
    await context.close();
    return { failures, errors: real };
  }

  try {
    for (const [si, [w, h]] of SIZES.entries()) {
      await t.step(`${w}×${h}: every language, type and theme in an http:// page of another origin`, async () => {
        const cells: Cell[] = [];
        LANGS.forEach((lang, li) => {
          paramWidgets(lang, THEMES[(li + si) % 3]).forEach((q, qi) =>
            cells.push({ src: `${s.url}/widget?${q}`, label: `${lang} ${qi}`, how: "plain" })
          );
        });
        // Live timers in three of the languages (a browser holds few streams per host at once).
        (["countdown", "event", "interval"] as const).forEach((type, i) => {
          const lang = LANGS[(si * 3 + i) % LANGS.length];
          const theme = THEMES[(si + i + 1) % 3];
          cells.push({
            src: `${s.url}/widget?id=${timers[type].timer_id}&lang=${lang}&theme=${theme}`,
            label: `live ${type} ${lang}`,
            how: "plain",
          });
        });
        cells.push({ src: `${s.url}/widget?id=tmr_missing0000000&lang=${LANGS[si]}`, label: "gone", how: "plain" });
        // Other states show their label at every size: paused, and done (with its restart button).
        const lang = LANGS[(si + 4) % LANGS.length];
        cells.push({
          src: `${s.url}/widget?id=${paused.timer_id}&lang=${lang}`,
          label: `paused ${lang}`,
          how: "plain",
        });
        cells.push({
          src: `${s.url}/widget?duration=1&title=${encodeURIComponent(TITLES[lang])}&lang=${lang}&theme=light`,
          label: `done ${lang}`,
          how: "plain",
        });
        hosts.set(`/grid-${w}x${h}`, hostHtml(`${w}x${h}`, w, h, cells));
        const r = await check(`embed-${w}x${h}`, `${hostUrl}/grid-${w}x${h}`, cells.length, w, h);
        assert.deepEqual(r.failures, []);
        assert.deepEqual(r.errors, []);
      });
    }

    await t.step("before any script runs, the server's render already fits every size and language", async () => {
      const context = await browser.newContext({ javaScriptEnabled: false });
      const page = await context.newPage();
      const failures: string[] = [];
      for (const [w, h] of SIZES) {
        await page.setViewportSize({ width: w, height: h });
        for (const [li, lang] of LANGS.entries()) {
          for (const q of paramWidgets(lang, THEMES[li % 3]).slice(0, 3)) {
            await page.goto(`${s.url}/widget?${q}`);
            const r = await inspect(page.mainFrame());
            if (r.problems.length) failures.push(`${w}x${h} ${q}: ${r.problems.join("; ")}`);
          }
        }
      }
      await context.close();
      assert.deepEqual(failures, []);
    });

    await t.step(
      "a file:// page and sandboxed iframes (opaque origins) load, style and stream the widget",
      async () => {
        for (const [w, h] of SIZES) {
          const cells: Cell[] = [];
          for (const lang of LANGS) {
            cells.push({
              src: `${s.url}/widget?${paramWidgets(lang, "auto")[1]}`,
              label: `event ${lang}`,
              how: "sandbox",
            });
          }
          cells.push({ src: `${s.url}/widget?id=${timers.countdown.timer_id}&lang=ja`, label: "live", how: "sandbox" });
          cells.push({ src: `${s.url}/widget?id=${timers.event.timer_id}&lang=de`, label: "nested", how: "nested" });
          cells.push({ src: `${s.url}/widget?${paramWidgets("ko", "light")[2]}`, label: "nested ko", how: "nested" });
          hosts.set(`/sandbox-${w}x${h}`, hostHtml("sandbox", w, h, cells));
          const sb = await check(`embed-sandbox-${w}x${h}`, `${hostUrl}/sandbox-${w}x${h}`, cells.length, w, h);
          assert.deepEqual(sb.failures, []);
          assert.deepEqual(sb.errors, []);

          const local: Cell[] = LANGS.map((lang, i) => ({
            src: `${s.url}/widget?${paramWidgets(lang, THEMES[i % 3])[i % 3]}`,
            label: lang,
            how: "plain" as const,
          }));
          local.push({ src: `${s.url}/widget?id=${timers.interval.timer_id}&lang=fr`, label: "live", how: "plain" });
          const file = `${dir}/embed-${w}x${h}.html`;
          await Deno.writeTextFile(file, hostHtml("file", w, h, local));
          const fr = await check(`embed-file-${w}x${h}`, `file://${file}`, local.length, w, h);
          assert.deepEqual(fr.failures, []);
          assert.deepEqual(fr.errors, []);
        }
      },
    );
  } finally {
    await browser.close();
    await host.shutdown();
    await s.close();
    await Deno.remove(dir, { recursive: true });
  }
});
