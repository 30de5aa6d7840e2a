/**
 * Production screens in headless Chromium: the view parameters (transparent, mirror, delay,
 * clock, hide) of the widget and the viewer, and the embed builder offering them.
 */
import assert from "node:assert/strict";
import type { Browser, Page } from "playwright-core";
import { key } from "../../lib/kv/keys.ts";
import type { Timer } from "../../lib/timers/model.ts";
import { ensureBuilt, hydrated, launch, serve, type Served, shot, watchErrors } from "./harness.ts";
import { hostSite } from "./host_site.ts";

async function open(browser: Browser, url: string, viewport = { width: 480, height: 400 }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(url);
  await hydrated(page);
  return { page, errors, context, close: () => context.close() };
}

/** Pretends a running timer started `ms` earlier (its stored stretch moved back; viewers get the change). */
async function startedAgo(s: Served, id: string, ms: number) {
  const entry = await s.kv.get<Timer>(key.timer(id));
  const t = entry.value!;
  assert.equal(t.state, "running");
  await s.kv.set(key.timer(id), { ...t, resumed_at: t.resumed_at! - ms, started_at: t.started_at! - ms });
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Counts of pixels of a PNG (decoded by the browser in `page`): in all of it and inside `inner`
 * (coordinates of the image), those close to `rgb` and those light (text on a dark theme).
 */
async function pixelCounts(page: Page, png: Uint8Array, rgb: [number, number, number], inner: Box) {
  const b64 = btoa(Array.from(png, (c) => String.fromCharCode(c)).join(""));
  return await page.evaluate(async ([src, [r0, g0, b0], box]) => {
    const img = new Image();
    img.src = `data:image/png;base64,${src}`;
    await img.decode();
    const canvas = new OffscreenCanvas(img.width, img.height);
    const g = canvas.getContext("2d")!;
    g.drawImage(img, 0, 0);
    const d = g.getImageData(0, 0, img.width, img.height).data;
    const out = { all: 0, match: 0, inner: 0, innerMatch: 0, innerLight: 0 };
    for (let y = 0; y < img.height; y++) {
      for (let x = 0; x < img.width; x++) {
        const i = (y * img.width + x) * 4;
        const close = Math.abs(d[i] - r0) < 40 && Math.abs(d[i + 1] - g0) < 40 && Math.abs(d[i + 2] - b0) < 40;
        const light = d[i] > 200 && d[i + 1] > 200 && d[i + 2] > 200;
        out.all++;
        if (close) out.match++;
        if (x >= box.x && x < box.x + box.width && y >= box.y && y < box.y + box.height) {
          out.inner++;
          if (close) out.innerMatch++;
          if (light) out.innerLight++;
        }
      }
    }
    return out;
  }, [b64, rgb, inner] as const);
}

/** Mean absolute difference (0…255) between PNG `a` and PNG `b` flipped left to right (or not). */
async function difference(page: Page, a: Uint8Array, b: Uint8Array, flipB: boolean): Promise<number> {
  const b64 = (png: Uint8Array) => btoa(Array.from(png, (c) => String.fromCharCode(c)).join(""));
  return await page.evaluate(async ([sa, sb, flip]) => {
    const load = async (src: string) => {
      const img = new Image();
      img.src = `data:image/png;base64,${src}`;
      await img.decode();
      return img;
    };
    const [ia, ib] = [await load(sa), await load(sb)];
    const data = (img: HTMLImageElement, mirror: boolean) => {
      const c = new OffscreenCanvas(img.width, img.height);
      const g = c.getContext("2d")!;
      if (mirror) g.setTransform(-1, 0, 0, 1, img.width, 0);
      g.drawImage(img, 0, 0);
      return g.getImageData(0, 0, img.width, img.height).data;
    };
    const [da, db] = [data(ia, false), data(ib, flip)];
    let sum = 0;
    for (let i = 0; i < da.length; i += 4) {
      sum += Math.abs(da[i] - db[i]) + Math.abs(da[i + 1] - db[i + 1]) + Math.abs(da[i + 2] - db[i + 2]);
    }
    return sum / (da.length / 4) / 3;
  }, [b64(a), b64(b), flipB] as const);
}

/** Seconds shown by the clock of `page` (m:ss or h:mm:ss). */
const shownSeconds = (page: Page) =>
  page.evaluate(() => {
    const [a, b, c] = document.querySelector(".face-hms")!.textContent!.split(":").map(Number);
    return c === undefined ? a * 60 + b : a * 3600 + b * 60 + c;
  });

const deadlineOf = async (page: Page) => Number(await page.locator(".face").first().getAttribute("data-deadline"));

Deno.test("view parameters for production screens", async (t) => {
  await ensureBuilt();
  const s = await serve();
  const host = hostSite();
  const browser = await launch();
  try {
    await t.step("a transparent widget over a red host page shows red around the digits", async () => {
      const widget = (extra: string) => `${s.url}/widget?duration=3000&title=Over%20red&alarm=0&theme=dark${extra}`;
      const v = await open(browser, "about:blank", { width: 700, height: 400 });
      const counts = async (extra: string) => {
        host.set(`<!doctype html><html lang="en"><head><title>Red</title></head>
<body style="margin:0;padding:20px;background:#ff0000"><iframe src="${
          widget(extra)
        }" style="width:320px;height:240px;border:0" title="Timer"></iframe></body></html>`);
        await v.page.goto(host.url);
        const frame = (await (await v.page.locator("iframe").elementHandle())!.contentFrame())!;
        await frame.waitForSelector(".face[data-deadline]");
        await frame.waitForLoadState("load");
        const box = (await v.page.locator("iframe").boundingBox())!;
        const hms = (await frame.locator(".face-hms").boundingBox())!;
        const png = await v.page.screenshot({ clip: box });
        return await pixelCounts(v.page, png, [255, 0, 0], {
          x: hms.x - box.x,
          y: hms.y - box.y,
          width: hms.width,
          height: hms.height,
        });
      };
      const clear = await counts("&transparent=1");
      assert.ok(clear.match / clear.all > 0.7, `the host's red shows through the frame: ${JSON.stringify(clear)}`);
      assert.ok(clear.innerMatch / clear.inner > 0.3, `red between the digits: ${JSON.stringify(clear)}`);
      assert.ok(clear.innerLight / clear.inner > 0.1, `the digits are drawn: ${JSON.stringify(clear)}`);
      const opaque = await counts("");
      assert.ok(
        opaque.match / opaque.all < 0.01,
        `without transparent=1 the card hides the red: ${JSON.stringify(opaque)}`,
      );
      assert.deepEqual(v.errors, []);
      // For the eye: an OBS-style overlay over a busy picture.
      host.set(`<!doctype html><html lang="en"><head><title>Busy</title></head>
<body style="margin:0;padding:30px;background:repeating-linear-gradient(45deg,#1d3557 0 24px,#e63946 24px 48px,#f1c40f 48px 72px,#2a9d8f 72px 96px)">
<iframe src="${
        widget("&transparent=1&clock=1&timezone=Europe/Paris")
      }" style="width:420px;height:300px;border:0" title="Timer"></iframe></body></html>`);
      await v.page.goto(host.url);
      const frame = (await (await v.page.locator("iframe").elementHandle())!.contentFrame())!;
      await frame.waitForSelector(".face[data-deadline]");
      await frame.waitForSelector(".face-clock-time");
      await shot(v.page, "screens-transparent-over-busy");
      await v.close();
    });

    await t.step("mirror=h flips the face left to right; v and both flip it upside down", async () => {
      const timer = await s.createTimer({ type: "countdown", duration: 754, title: "Keynote — Ada" });
      // Paused, so both screenshots show the same second.
      await s.api("PATCH", `/timers/${timer.timer_id}/state`, { action: "start" });
      await s.api("PATCH", `/timers/${timer.timer_id}/state`, { action: "pause" });
      const plain = await open(browser, `${timer.viewer_url}?alarm=0`);
      const mirrored = await open(browser, `${timer.viewer_url}?alarm=0&mirror=h`);
      for (const p of [plain.page, mirrored.page]) {
        await p.waitForSelector('.face[data-sync="live"][data-state="paused"]');
      }
      const a = await plain.page.screenshot();
      const b = await mirrored.page.screenshot();
      const flipped = await difference(plain.page, a, b, true);
      const unflipped = await difference(plain.page, a, b, false);
      assert.ok(flipped < 1, `the mirrored page is the page flipped: mean difference ${flipped}`);
      assert.ok(unflipped > 3 * flipped + 2, `and it is not the page itself: ${unflipped} vs ${flipped}`);
      await shot(mirrored.page, "screens-viewer-mirrored");
      for (const [m, matrix] of [["v", "matrix(1, 0, 0, -1, 0, 0)"], ["both", "matrix(-1, 0, 0, -1, 0, 0)"]]) {
        await mirrored.page.goto(`${timer.viewer_url}?alarm=0&mirror=${m}`);
        const transform = await mirrored.page.evaluate(() =>
          getComputedStyle(document.querySelector(".shell")!).transform
        );
        assert.equal(transform, matrix, m);
      }
      assert.deepEqual([...plain.errors, ...mirrored.errors], []);
      await plain.close();
      await mirrored.close();
    });

    await t.step("delay=10 reads 10 s behind an undelayed viewer", async () => {
      const timer = await s.createTimer({ type: "countdown", duration: 300, title: "Delayed" });
      await s.api("PATCH", `/timers/${timer.timer_id}/state`, { action: "start" });
      await startedAgo(s, timer.timer_id, 30_000);
      const now = await open(browser, `${timer.viewer_url}?alarm=0`);
      const late = await open(browser, `${timer.viewer_url}?alarm=0&delay=10`);
      for (const p of [now.page, late.page]) await p.waitForSelector('.face[data-sync="live"][data-deadline]');
      const [dNow, dLate] = [await deadlineOf(now.page), await deadlineOf(late.page)];
      assert.ok(Math.abs(dLate - dNow - 10_000) <= 300, `deadlines ${dLate - dNow} ms apart`);
      const [sNow, sLate] = [await shownSeconds(now.page), await shownSeconds(late.page)];
      assert.ok(sNow <= 271 && sNow >= 265, `the viewer shows about 270 s: ${sNow}`);
      assert.ok(Math.abs(sLate - sNow - 10) <= 1, `the delayed one shows 10 s more: ${sLate} vs ${sNow}`);
      assert.equal(await late.page.locator(".face").getAttribute("data-state"), "running");
      assert.deepEqual([...now.errors, ...late.errors], []);
      await now.close();
      await late.close();
    });

    await t.step("a change reaches a delayed viewer the delay later", async () => {
      const timer = await s.createTimer({ type: "countdown", duration: 300 });
      await s.api("PATCH", `/timers/${timer.timer_id}/state`, { action: "start" });
      await startedAgo(s, timer.timer_id, 10_000);
      const now = await open(browser, `${timer.viewer_url}?alarm=0`);
      const late = await open(browser, `${timer.viewer_url}?alarm=0&delay=2`);
      for (const p of [now.page, late.page]) await p.waitForSelector('.face[data-sync="live"][data-state="running"]');
      const t0 = performance.now();
      await s.api("PATCH", `/timers/${timer.timer_id}/state`, { action: "pause" });
      await now.page.waitForSelector('.face[data-state="paused"]', { timeout: 10_000 });
      const tNow = performance.now() - t0;
      assert.equal(await late.page.locator(".face").getAttribute("data-state"), "running", "not yet");
      await late.page.waitForSelector('.face[data-state="paused"]', { timeout: 10_000 });
      const tLate = performance.now() - t0;
      assert.ok(
        // At least the delay behind (a loaded machine may be later still, never sooner).
        tLate - tNow > 1200 && tLate < 8000,
        `paused after ${Math.round(tLate)} ms (undelayed ${Math.round(tNow)})`,
      );
      assert.equal(await shownSeconds(late.page), await shownSeconds(now.page), "both stop at the same second");
      await now.close();
      await late.close();
    });

    await t.step(
      "clock=1 shows the time of day in the given zone, else the viewer's; hide= takes parts away",
      async () => {
        const w = await open(
          browser,
          `${s.url}/widget?duration=600&clock=1&timezone=Asia/Tokyo&hide=progress,title&title=Gone`,
        );
        const expected = (zone?: string) =>
          [0, -60_000].map((back) =>
            new Intl.DateTimeFormat("en", { hour: "2-digit", minute: "2-digit", timeZone: zone }).format(
              Date.now() + back,
            )
          );
        assert.ok(expected("Asia/Tokyo").includes(await w.page.locator(".face-clock-time").innerText()));
        assert.equal(await w.page.locator(".face-clock-zone").innerText(), "Tokyo");
        assert.equal(await w.page.locator(".face-title").count(), 0, "hide=title");
        assert.equal(await w.page.locator(".face-bar").isVisible(), false, "hide=progress");
        await w.close();
        const ctx = await browser.newContext({ timezoneId: "America/New_York", viewport: { width: 480, height: 400 } });
        const page = await ctx.newPage();
        await page.goto(`${s.url}/widget?duration=600&clock=1`);
        await hydrated(page);
        await page.waitForFunction(() => document.querySelector(".face-clock-time")?.textContent !== "--:--");
        assert.ok(expected("America/New_York").includes(await page.locator(".face-clock-time").innerText()));
        assert.equal(await page.locator(".face-clock-zone").count(), 0);
        assert.equal(await page.locator(".face-bar").isVisible(), true, "the bar without hide=progress");
        await ctx.close();
      },
    );

    await t.step("the embed builder offers the view options, each in its preview and snippet", async () => {
      const b = await open(browser, `${s.url}/`, { width: 1280, height: 1000 });
      const frame = b.page.frameLocator(".builder-preview iframe");
      await frame.locator(".face-hms").waitFor();
      const snippet = () => b.page.inputValue('textarea[name="snippet"]');
      await b.page.selectOption('select[name="mirror"]', "h");
      await b.page.check('input[name="transparent"]');
      await b.page.fill('input[name="delay"]', "10");
      await b.page.check('input[name="clock"]');
      await b.page.fill('input[name="clock_zone"]', "Europe/Paris");
      await b.page.check('input[name="hide_progress"]');
      await b.page.waitForFunction(() =>
        /hide=progress/.test(document.querySelector<HTMLTextAreaElement>('textarea[name="snippet"]')!.value)
      );
      const src = /src="([^"]+)"/.exec(await snippet())![1].replaceAll("&amp;", "&");
      const q = new URL(src).searchParams;
      assert.deepEqual(
        ["mirror", "transparent", "delay", "clock", "timezone", "hide"].map((k) => q.get(k)),
        ["h", "1", "10", "1", "Europe/Paris", "progress"],
      );
      assert.match(await snippet(), /color-scheme:normal/);
      // The preview follows (a moment after typing stops).
      await b.page.waitForFunction(() => /hide=progress/.test(document.querySelector("iframe")!.src));
      await frame.locator(".face-clock-zone").waitFor();
      const previewHtml = frame.locator("html");
      assert.equal(await previewHtml.getAttribute("data-mirror"), "h");
      assert.equal(await previewHtml.getAttribute("data-transparent"), "");
      assert.equal(await frame.locator(".face-clock-zone").innerText(), "Paris");
      await b.page.locator(".builder").scrollIntoViewIfNeeded();
      await shot(b.page, "screens-builder", { fullPage: true });
      assert.deepEqual(b.errors, []);
      await b.close();
    });
  } finally {
    await browser.close();
    await host.close();
    await s.close();
  }
});
