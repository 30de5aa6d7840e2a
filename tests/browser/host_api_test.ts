/**
 * The widget's host-page API in headless Chromium: a host page on another origin receives
 * ready, state, resize, round_end and completed, runs the guide's copy-paste snippet as written,
 * and drives a parameter-only widget (a live widget ignores commands).
 */
import assert from "node:assert/strict";
import type { Frame, Page } from "playwright-core";
import { ensureBuilt, launch, serve, shot, watchErrors } from "./harness.ts";
import { hostSite } from "./host_site.ts";

interface Msg {
  frame: string | null;
  source: string;
  type: string;
  timer_id: string | null;
  [k: string]: unknown;
}

/** Records every message the page receives, with the id of the iframe that sent it. */
const RECORDER = `<script>
window.msgs = [];
addEventListener("message", (e) => {
  const f = [...document.querySelectorAll("iframe")].find((x) => x.contentWindow === e.source);
  window.msgs.push({ frame: f ? f.id : null, ...e.data });
});
</script>`;

/** The guide's copy-paste block, as written there. */
async function guideSnippet(): Promise<string> {
  const md = await Deno.readTextFile(new URL("../../docs/guides/embed-api.md", import.meta.url));
  const m = /<!-- host-snippet[^>]*-->\s*```html\n([\s\S]*?)```/.exec(md);
  assert.ok(m, "the guide has its host snippet");
  return m[1];
}

const messages = (page: Page) => page.evaluate(() => (globalThis as unknown as { msgs: Msg[] }).msgs);

/** Waits until a message matching `test` has arrived; returns all messages so far. */
async function until(page: Page, what: string, test: (m: Msg) => boolean, timeout = 5000): Promise<Msg[]> {
  const t0 = Date.now();
  for (;;) {
    const all = await messages(page);
    if (all.some(test)) return all;
    if (Date.now() - t0 > timeout) throw new Error(`no ${what} within ${timeout} ms: ${JSON.stringify(all)}`);
    await page.waitForTimeout(50);
  }
}

async function frameOf(page: Page, id: string): Promise<Frame> {
  return (await (await page.locator(`iframe#${id}`).elementHandle())!.contentFrame())!;
}

Deno.test("the widget's host-page API", async (t) => {
  await ensureBuilt();
  const s = await serve();
  const host = hostSite();
  const browser = await launch();
  const context = await browser.newContext({ viewport: { width: 800, height: 700 } });
  try {
    await t.step(
      "the guide's snippet, on another origin: ready, state, resize and completed from a live widget",
      async () => {
        const timer = await s.createTimer({ type: "countdown", duration: 3, title: "Short talk" });
        const src = `${s.url}/widget?id=${timer.timer_id}&alarm=0`;
        const snippet = (await guideSnippet()).replace(/src="[^"]+"/, `src="${src}"`);
        host.set(`<!doctype html><html lang="en"><head><title>Host</title>${RECORDER}</head>
<body style="margin:0;padding:20px;font-family:sans-serif"><h1>Our event</h1>${snippet}</body></html>`);
        const page = await context.newPage();
        const errors = watchErrors(page);
        await page.goto(host.url);
        let all = await until(page, "state", (m) => m.type === "state");
        assert.equal(all[0].type, "ready", "ready comes first");
        assert.equal(all.filter((m) => m.type === "ready").length, 1);
        for (const m of all) {
          assert.equal(m.source, "timer-widget");
          assert.equal(m.timer_id, timer.timer_id);
          assert.equal(m.frame, "timer");
        }
        const first = all.find((m) => m.type === "state")!;
        assert.deepEqual([first.state, first.zone, first.remaining_ms], ["idle", "normal", 3000]);
        assert.ok(Math.abs((first.server_now as number) - Date.now()) < 2000);
        // Auto-resize: the frame takes the height the widget asks for, and that settles.
        all = await until(page, "resize", (m) => m.type === "resize");
        await page.waitForTimeout(500);
        all = await messages(page);
        const resizes = all.filter((m) => m.type === "resize");
        const lastSize = resizes[resizes.length - 1];
        const box = (await page.locator("iframe#timer").boundingBox())!;
        assert.equal(Math.round(box.height), lastSize.height, JSON.stringify(resizes));
        assert.ok((lastSize.height as number) > 150 && (lastSize.height as number) < 700, JSON.stringify(lastSize));
        assert.ok(resizes.length <= 3, `no resize loop: ${JSON.stringify(resizes)}`);
        const widget = await frameOf(page, "timer");
        const fit = await widget.evaluate(() => document.querySelector<HTMLElement>(".face")!.dataset.fit ?? "");
        assert.equal(fit, "", "at its natural height nothing of the face is taken away");
        // Start through the API: state running, then completed, then the snippet's "after" line.
        await s.api("PATCH", `/timers/${timer.timer_id}/state`, { action: "start" });
        all = await until(page, "running state", (m) => m.type === "state" && m.state === "running");
        const running = all.find((m) => m.type === "state" && m.state === "running")!;
        assert.ok((running.remaining_ms as number) > 1000 && (running.remaining_ms as number) <= 3000);
        all = await until(page, "completed", (m) => m.type === "completed", 6000);
        const after = all.slice(all.findIndex((m) => m.state === "running") + 1).filter((m) => m.type !== "resize")
          .map((m) => m.type === "state" ? `state:${m.state}` : m.type);
        // No message per tick (a loaded machine may re-estimate the server's clock once by more than 250 ms).
        assert.match(after.join(" "), /^(state:running )?state:completed completed$/, after.join(" "));
        assert.equal(all.find((m) => m.type === "state" && m.state === "completed")?.remaining_ms, 0);
        await page.locator("#after-timer").waitFor({ state: "visible" });
        await shot(page, "host-api-completed");
        assert.deepEqual(errors, []);
        await page.close();
      },
    );

    await t.step("a parameter-only widget obeys its parent's commands; a live widget ignores them", async () => {
      const timer = await s.createTimer({ type: "countdown", duration: 600 });
      await s.api("PATCH", `/timers/${timer.timer_id}/state`, { action: "start" });
      host.set(`<!doctype html><html lang="en"><head><title>Host</title>${RECORDER}</head><body>
<iframe id="local" src="${s.url}/widget?duration=600&alarm=0" style="width:320px;height:240px;border:0" title="Local"></iframe>
<iframe id="live" src="${s.url}/widget?id=${timer.timer_id}&alarm=0" style="width:320px;height:240px;border:0" title="Live"></iframe>
<script>
window.send = (id, command) => document.getElementById(id).contentWindow.postMessage({ source: "timer-host", command }, "*");
</script></body></html>`);
      const page = await context.newPage();
      const errors = watchErrors(page);
      await page.goto(host.url);
      await until(page, "both ready", (m) => m.type === "state" && m.frame === "live");
      await until(page, "both ready", (m) => m.type === "state" && m.frame === "local");
      const [local, live] = [await frameOf(page, "local"), await frameOf(page, "live")];
      await live.waitForSelector('.face[data-sync="live"][data-state="running"]');
      const send = (id: string, command: string) =>
        page.evaluate(([i, c]) => (globalThis as unknown as { send(i: string, c: string): void }).send(i, c), [
          id,
          command,
        ]);
      const stateOf = (f: Frame) => f.locator(".face").getAttribute("data-state");
      const clock = (f: Frame) => f.locator(".face-hms").innerText();

      await send("live", "pause");
      await send("local", "pause");
      await local.waitForSelector('.face[data-state="paused"]', { timeout: 10_000 });
      await until(page, "paused state", (m) => m.frame === "local" && m.type === "state" && m.state === "paused");
      const frozen = await clock(local);
      // The same command, sent to the live widget first, changed nothing there.
      assert.equal(await stateOf(live), "running");
      assert.equal((await messages(page)).some((m) => m.frame === "live" && m.state === "paused"), false);
      await page.waitForTimeout(1100);
      assert.equal(await clock(local), frozen, "paused time stands still");
      await send("local", "resume");
      await local.waitForSelector('.face[data-state="running"]', { timeout: 10_000 });
      await send("local", "reset");
      await local.waitForSelector('.face[data-state="idle"]', { timeout: 10_000 });
      assert.equal(await clock(local), "10:00");
      await send("local", "start");
      await local.waitForSelector('.face[data-state="running"]', { timeout: 10_000 });
      // Messages follow the paint: wait for the fifth state.
      await page.waitForFunction(() =>
        (globalThis as unknown as { msgs: Msg[] }).msgs.filter((m) => m.frame === "local" && m.type === "state")
          .length >= 5
      );
      const states = (await messages(page)).filter((m) => m.frame === "local" && m.type === "state").map((m) =>
        m.state
      );
      assert.deepEqual(
        states,
        ["running", "paused", "running", "idle", "running"],
        JSON.stringify(await messages(page)),
      );
      // A message from another window than the parent is not obeyed.
      await local.evaluate(() => postMessage({ source: "timer-host", command: "pause" }, "*"));
      await page.waitForTimeout(300);
      assert.equal(await stateOf(local), "running");
      assert.deepEqual(errors, []);
      await page.close();
    });

    await t.step("round_end per round of an interval, then completed", async () => {
      host.set(`<!doctype html><html lang="en"><head><title>Host</title>${RECORDER}</head><body>
<iframe id="iv" src="${s.url}/widget?type=interval&work=1&rest=0&rounds=2&alarm=0" style="width:320px;height:240px;border:0" title="Intervals"></iframe>
</body></html>`);
      const page = await context.newPage();
      await page.goto(host.url);
      const all = await until(page, "completed", (m) => m.type === "completed", 6000);
      const tail = all.filter((m) => m.type === "round_end" || m.type === "completed");
      assert.deepEqual(tail.map((m) => [m.type, m.round ?? null]), [["round_end", 1], ["round_end", 2], [
        "completed",
        null,
      ]]);
      assert.equal(all.find((m) => m.type === "ready")?.timer_id, null);
      await page.close();
    });
  } finally {
    await context.close();
    await browser.close();
    await host.close();
    await s.close();
  }
});
