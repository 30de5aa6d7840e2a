/** Live pages in headless Chromium: /v/:id, /widget?id= and /c/:id follow and drive a server timer. */
import assert from "node:assert/strict";
import type { Browser, Page } from "playwright-core";
import {
  axeViolations,
  clockText,
  ensureBuilt,
  hydrated,
  launch,
  serve,
  shot,
  ticksFrom,
  watchErrors,
  yearsAhead,
} from "./harness.ts";

async function open(browser: Browser, url: string, viewport = { width: 480, height: 520 }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(url);
  await hydrated(page);
  return { page, errors, close: () => context.close() };
}

const stateOf = (page: Page) => page.locator(".face").first().getAttribute("data-state");

/** Waits until the page shows `state`; returns how long that took. */
async function until(page: Page, state: string, timeout = 10_000): Promise<number> {
  const t0 = performance.now();
  await page.waitForSelector(`.face[data-state="${state}"]`, { timeout });
  return performance.now() - t0;
}

/** The first live snapshot has arrived (the stream is open). */
async function streaming(page: Page) {
  await page.waitForSelector('.face[data-sync="live"]');
}

/** Enabled control buttons, by action. */
async function enabled(page: Page): Promise<string[]> {
  return await page.$$eval(
    "button[data-action]:not([disabled])",
    (bs) => bs.map((b) => b.getAttribute("data-action")!),
  );
}

Deno.test("live pages in a browser", async (t) => {
  await ensureBuilt();
  const s = await serve();
  const browser = await launch();
  try {
    await t.step("a viewer follows every change made through the API within a second", async () => {
      const timer = await s.createTimer({ type: "countdown", duration: 90, title: "Talk" });
      const v = await open(browser, timer.viewer_url);
      await streaming(v.page);
      assert.equal(await stateOf(v.page), "idle");
      assert.equal(await clockText(v.page), "01:30");
      for (
        const [action, state] of [
          ["start", "running"],
          ["pause", "paused"],
          ["resume", "running"],
          ["stop", "stopped"],
          ["reset", "idle"],
        ]
      ) {
        const r = await s.api("PATCH", `/timers/${timer.timer_id}/state`, { action });
        assert.equal(r.status, 200, `${action}: ${JSON.stringify(r.body)}`);
        // Shown without a reload (how soon is the bench's live row: a loaded machine is no measure).
        await until(v.page, state);
        if (action === "start") {
          // It ticks: 01:30 becomes 01:29 (within 10 s, for a loaded machine).
          await v.page.waitForFunction(
            () =>
              (document.querySelector(".face-time") as HTMLElement).innerText.replace(/\s+/g, " ").trim() === "01:29",
            null,
            { timeout: 10_000 },
          );
          await shot(v.page, "viewer-running");
        }
        if (action === "pause") {
          const frozen = await clockText(v.page);
          await v.page.waitForTimeout(1100);
          assert.equal(await clockText(v.page), frozen, "paused time stands still");
          await shot(v.page, "viewer-paused");
        }
      }
      assert.equal(await clockText(v.page), "01:30");
      assert.deepEqual(v.errors, []);
      await v.close();
    });

    await t.step("completion reaches an open viewer and widget without reload", async () => {
      const timer = await s.createTimer({ type: "countdown", duration: 2, title: "Short" });
      const v = await open(browser, timer.viewer_url);
      const w = await open(browser, `${timer.embed_url}&alarm=0`, { width: 300, height: 220 });
      await streaming(v.page);
      await streaming(w.page);
      await s.api("PATCH", `/timers/${timer.timer_id}/state`, { action: "start" });
      await until(v.page, "running");
      await until(v.page, "completed");
      await until(w.page, "completed");
      assert.match(await v.page.locator(".face-state").innerText(), /Time's up/);
      await shot(v.page, "viewer-completed");
      await v.close();
      await w.close();
    });

    await t.step("two screens of one timer agree within 0.25 s", async () => {
      const timer = await s.createTimer({ type: "interval", work: 30, rest: 10, rounds: 5, title: "Rowing" });
      await s.api("PATCH", `/timers/${timer.timer_id}/state`, { action: "start" });
      const a = await open(browser, timer.viewer_url);
      const b = await open(browser, `${timer.embed_url}&alarm=0`, { width: 320, height: 240 });
      await streaming(a.page);
      await streaming(b.page);
      const deadline = async (p: Page) => Number(await p.locator(".face").first().getAttribute("data-deadline"));
      const [da, db] = [await deadline(a.page), await deadline(b.page)];
      assert.ok(da > Date.now(), "a running interval has a deadline");
      assert.ok(Math.abs(da - db) < 250, `deadlines differ by ${Math.abs(da - db)} ms`);
      // Read both clocks mid-second, where a shared deadline means identical digits.
      const ms = (da - Date.now()) % 1000;
      await new Promise((r) => setTimeout(r, (ms + 500) % 1000));
      assert.equal(await clockText(a.page), await clockText(b.page));
      assert.equal(await a.page.locator(".face-round").innerText(), "Round 1 of 5");
      await shot(b.page, "widget-live-interval");
      await a.close();
      await b.close();
    });

    await t.step("a live widget says so when its timer is deleted", async () => {
      const timer = await s.createTimer({ type: "countdown", duration: 60 });
      const w = await open(browser, timer.embed_url, { width: 320, height: 240 });
      await streaming(w.page);
      assert.equal((await s.api("DELETE", `/timers/${timer.timer_id}`)).status, 200);
      await w.page.getByText("This timer has ended or was deleted.").waitFor({ timeout: 10_000 });
      // It stops: no "Running" over a ticking clock for a timer that no longer exists.
      await until(w.page, "gone");
      assert.equal(await w.page.locator(".face-state").innerText(), "Unavailable");
      assert.equal(await clockText(w.page), "--:--");
      await w.page.waitForTimeout(1100);
      assert.equal(await clockText(w.page), "--:--");
      await shot(w.page, "widget-gone");
      await w.close();
    });

    await t.step("show_title=0 keeps a live widget's title hidden through every snapshot", async () => {
      const timer = await s.createTimer({ type: "countdown", duration: 60, title: "Secret launch" });
      const w = await open(browser, `${timer.embed_url}&show_title=0&alarm=0`, { width: 320, height: 240 });
      await streaming(w.page);
      assert.equal(await w.page.locator(".face-title").count(), 0, "after the first snapshot");
      // A renamed timer sends a snapshot with its new title: still hidden.
      assert.equal((await s.api("PATCH", `/timers/${timer.timer_id}`, { title: "Renamed" })).status, 200);
      assert.equal((await s.api("PATCH", `/timers/${timer.timer_id}/state`, { action: "start" })).status, 200);
      await until(w.page, "running");
      assert.equal(await w.page.locator(".face-title").count(), 0, "after later snapshots");
      assert.deepEqual(w.errors, []);
      await w.close();
      // Without show_title=0 the rename shows.
      const v = await open(browser, `${timer.embed_url}&alarm=0`, { width: 320, height: 240 });
      await streaming(v.page);
      assert.equal(await v.page.locator(".face-title").innerText(), "Renamed");
      await v.close();
    });

    await t.step("an event counts to its target and completes there, started or not", async () => {
      // Far enough ahead that a busy machine opens the page before the target.
      const target = new Date(Date.now() + 8000).toISOString();
      const timer = await s.createTimer({ type: "event", target_date: target, title: "Soon" });
      const v = await open(browser, timer.viewer_url, { width: 480, height: 520 });
      await streaming(v.page);
      assert.equal(await stateOf(v.page), "running");
      assert.notEqual(await v.page.locator(".face-state").innerText(), "Not started");
      await ticksFrom(v.page, ".face-time", await v.page.locator(".face-time").innerText());
      await until(v.page, "completed", Date.parse(target) - Date.now() + 2000);
      assert.equal(await v.page.locator(".face-state").innerText(), "Time's up");
      assert.equal(await clockText(v.page), "00:00");
      await v.close();
    });

    await t.step("an event's date is shown in the viewer's time zone, with the event's zone beside it", async () => {
      const year = yearsAhead(4);
      const timer = await s.createTimer({ type: "event", target_date: `${year}-01-01T00:00:00Z`, title: "New year" });
      for (const url of [timer.viewer_url, timer.control_url]) {
        const context = await browser.newContext({ timezoneId: "Europe/Paris", viewport: { width: 600, height: 700 } });
        const page = await context.newPage();
        await page.goto(url);
        await hydrated(page);
        const date = page.locator(".face-date time");
        await page.waitForFunction(() => /1:00/.test(document.querySelector(".face-date time")!.textContent!));
        assert.match(await date.innerText(), new RegExp(`Until January 1, ${year} at 1:00\\s?AM GMT\\+1`));
        assert.match(await page.locator(".face-zone").innerText(), new RegExp(`January 1, ${year} \\(UTC\\)`));
        // The clock (days above it) fits the page's width.
        const clock = await page.evaluate(() =>
          [...document.querySelectorAll(".face-time, .face-time > *")].map((el) => {
            const r = el.getBoundingClientRect();
            return { left: r.left, right: r.right, over: el.scrollWidth - el.clientWidth };
          })
        );
        for (const c of clock) assert.ok(c.left >= 0 && c.right <= 600 && c.over <= 0, JSON.stringify(clock));
        await shot(page, url.includes("/c/") ? "control-event-paris" : "viewer-event-paris");
        await context.close();
      }
    });

    await t.step("the control page drives a timer with only the valid buttons enabled", async () => {
      const timer = await s.createTimer({ type: "countdown", duration: 300, title: "Presentation" });
      const c = await open(browser, timer.control_url, { width: 720, height: 720 });
      await c.page.getByText("You can control this timer.").waitFor();
      assert.deepEqual(await enabled(c.page), ["start", "reset"]);
      await shot(c.page, "control-idle");
      const steps: [string, string, string[]][] = [
        ["start", "running", ["pause", "stop", "reset"]],
        ["pause", "paused", ["resume", "stop", "reset"]],
        ["resume", "running", ["pause", "stop", "reset"]],
        ["stop", "stopped", ["reset"]],
        ["reset", "idle", ["start", "reset"]],
      ];
      for (const [action, state, next] of steps) {
        await c.page.click(`button[data-action="${action}"]`);
        // Stop while running asks once more.
        if (action === "stop") await c.page.click(`button[data-action="stop"][data-confirm]`);
        await until(c.page, state);
        await c.page.waitForFunction(
          (n) => document.querySelectorAll("button[data-action]:not([disabled])").length === n,
          next.length,
        );
        assert.deepEqual(await enabled(c.page), next, `after ${action}`);
        const api = await s.api("GET", `/timers/${timer.timer_id}`);
        assert.equal(api.body.state, state, `the API agrees after ${action}`);
        if (action === "pause") await shot(c.page, "control-paused");
      }
      // Deleted meanwhile: the status line no longer reports the last action as sent.
      assert.match(await c.page.locator(".control-status").innerText(), /Reset/);
      await s.api("DELETE", `/timers/${timer.timer_id}`);
      await c.page.locator(".control-status", { hasText: "Unavailable" }).waitFor({ timeout: 20_000 });
      await shot(c.page, "control-gone");
      assert.deepEqual(await enabled(c.page), []);
      assert.deepEqual(c.errors, []);
      await c.close();
    });

    await t.step("with the keyboard, the focus stays on the buttons: Start, then Pause, then Resume", async () => {
      const timer = await s.createTimer({ type: "countdown", duration: 300, title: "Keyboard" });
      const c = await open(browser, timer.control_url, { width: 720, height: 720 });
      await c.page.getByText("You can control this timer.").waitFor();
      const focused = () => c.page.evaluate(() => document.activeElement?.getAttribute("data-action") ?? "none");
      await c.page.keyboard.press("Tab");
      assert.equal(await focused(), "start");
      for (const [state, next] of [["running", "pause"], ["paused", "resume"], ["running", "pause"]]) {
        await c.page.keyboard.press("Enter");
        await until(c.page, state);
        // The pressed button is no longer valid: the focus moves on to the next action, not to the page.
        await c.page.waitForFunction((a) => document.activeElement?.getAttribute("data-action") === a, next, {
          timeout: 10_000,
        }).catch(() => {});
        assert.equal(await focused(), next, `after ${state}`);
      }
      await c.page.waitForSelector('button[data-action="pause"]:not([aria-disabled])');
      await c.page.keyboard.press("Tab");
      assert.equal(await focused(), "stop", "Tab goes on from there");
      assert.deepEqual(c.errors, []);
      await c.close();
    });

    await t.step("an event timer's control page offers stop and reset, never pause", async () => {
      const timer = await s.createTimer({ type: "event", target_date: new Date(Date.now() + 86400_000).toISOString() });
      const c = await open(browser, `${timer.control_url.replace("#", "?lang=ja#")}`, { width: 600, height: 700 });
      await c.page.getByText("このタイマーを操作できます。").waitFor();
      // Not started, yet counting: the face runs, and start is still offered.
      assert.equal(await stateOf(c.page), "running");
      assert.deepEqual(await enabled(c.page), ["start", "reset"]);
      await c.page.click('button[data-action="start"]');
      // An idle event already shows running: what tells that the start was applied is the buttons.
      await c.page.waitForFunction(() =>
        [...document.querySelectorAll("button[data-action]:not([disabled])")].map((b) => b.getAttribute("data-action"))
          .join() === "stop,reset"
      );
      assert.deepEqual(await enabled(c.page), ["stop", "reset"]);
      await shot(c.page, "control-event-ja");
      await c.close();
    });

    await t.step("errors from the API are shown in the page", async () => {
      const timer = await s.createTimer({ type: "countdown", duration: 60 });
      const c = await open(browser, timer.control_url);
      await c.page.getByText("You can control this timer.").waitFor();
      await c.page.route("**/actions/*", (route) =>
        route.fulfill({
          status: 429,
          contentType: "application/json",
          body: JSON.stringify({ error: { code: 429, message: "rate limit exceeded; retry in 12 s" } }),
        }));
      await c.page.click('button[data-action="start"]');
      await c.page.getByText("Could not Start: rate limit exceeded; retry in 12 s").waitFor({ timeout: 10_000 });
      assert.equal(await stateOf(c.page), "idle");
      await c.close();
    });

    await t.step("without a valid token the control page says so and controls nothing", async () => {
      const timer = await s.createTimer({ type: "countdown", duration: 60 });
      for (
        const [url, msg] of [
          [timer.control_url.split("#")[0], "This link has no control token"],
          [`${timer.control_url.split("#")[0]}#tct_AAAAAAAAAAAAAAAAAAAAAAAAAAAA`, "This control link is not valid"],
          // A mangled link (a bad percent escape) is a bad token, not a page stuck on "Checking…".
          [`${timer.control_url.split("#")[0]}#%zz`, "This control link is not valid"],
        ]
      ) {
        const c = await open(browser, url);
        await c.page.getByText(msg).waitFor();
        assert.deepEqual(await enabled(c.page), []);
        assert.deepEqual(c.errors.filter((e) => e.startsWith("pageerror")), [], url);
        if (msg.includes("valid")) await shot(c.page, "control-bad-token");
        await c.close();
      }
      assert.equal((await s.api("GET", `/timers/${timer.timer_id}`)).body.state, "idle");
    });

    await t.step("a control link pasted over the open page (only its fragment changes) takes effect", async () => {
      const timer = await s.createTimer({ type: "countdown", duration: 60 });
      const c = await open(browser, timer.control_url.split("#")[0]);
      await c.page.getByText("This link has no control token").waitFor();
      // The browser does not load the page again for a new fragment.
      await c.page.goto(timer.control_url);
      await c.page.getByText("You can control this timer.").waitFor({ timeout: 10_000 });
      assert.deepEqual(await enabled(c.page), ["start", "reset"]);
      await c.page.goto(`${timer.control_url.split("#")[0]}#tct_AAAAAAAAAAAAAAAAAAAAAAAAAAAA`);
      await c.page.getByText("This control link is not valid").waitFor({ timeout: 10_000 });
      assert.deepEqual(await enabled(c.page), []);
      // The browser logs the refused check (401) of the bad token; nothing else may fail.
      assert.deepEqual(c.errors.filter((e) => !/status of 401/.test(e)), []);
      await c.close();
    });

    await t.step("hostile titles stay text in live pages", async () => {
      const timer = await s.createTimer({
        type: "countdown",
        duration: 60,
        title: `</script><script>alert(1)</script>"><img src=x onerror=alert(1)>`,
      });
      for (const url of [timer.viewer_url, timer.embed_url, timer.control_url]) {
        const ctx = await browser.newContext();
        const page = await ctx.newPage();
        let dialogs = 0;
        page.on("dialog", (d) => {
          dialogs++;
          d.dismiss();
        });
        await page.goto(url);
        await hydrated(page);
        assert.equal(await page.locator(".face-title").innerText(), timer.title);
        assert.equal(await page.locator("img").count(), 0);
        assert.equal(dialogs, 0);
        await ctx.close();
      }
    });

    await t.step("axe finds no serious or critical violations on viewer and control pages", async () => {
      const timer = await s.createTimer({
        type: "interval",
        work: 20,
        rest: 10,
        rounds: 3,
        title: "Circuit",
        theme: "dark",
      });
      const light = await s.createTimer({
        type: "countdown",
        duration: 60,
        title: "Light",
        theme: "light",
        color: "FFD400",
      });
      for (
        const url of [timer.viewer_url, timer.control_url, light.viewer_url, light.control_url, `${s.url}/v/tmr_gone`]
      ) {
        const p = await open(browser, url);
        if (url.includes("#")) await p.page.getByText("You can control this timer.").waitFor();
        assert.deepEqual(await axeViolations(p.page), [], url);
        await p.close();
      }
    });
  } finally {
    await browser.close();
    await s.close();
  }
});
