/**
 * Running a show in headless Chromium, in real time: the operator's control page and the
 * speaker's viewer side by side; Space starts, the face turns to warning at its threshold, a
 * message and a blackout sent with the control token reach the viewer within a second.
 */
import assert from "node:assert/strict";
import type { Browser, Page } from "playwright-core";
import { axeViolations, clockText, ensureBuilt, hydrated, launch, serve, shot, watchErrors } from "./harness.ts";

async function open(browser: Browser, url: string, viewport = { width: 1280, height: 720 }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(url);
  await hydrated(page);
  return { page, errors, close: () => context.close() };
}

const zoneOf = (page: Page) => page.locator(".face").first().getAttribute("data-zone");

/** Waits for a selector; returns how long it took from `t0`. */
async function within(page: Page, selector: string, t0: number, timeout = 1000): Promise<number> {
  await page.waitForSelector(selector, { timeout });
  return performance.now() - t0;
}

Deno.test("running a show: keys, zones, messages and blackout on the speaker's screen", async (t) => {
  await ensureBuilt();
  const s = await serve();
  const browser = await launch();
  try {
    await t.step("Space starts, the viewer turns warning at its threshold, messages and blackout arrive", async () => {
      const timer = await s.createTimer({ type: "countdown", duration: 8, warn_at: 6, title: "Keynote" });
      const token = new URL(timer.control_url).hash.slice(1);
      const v = await open(browser, timer.viewer_url);
      const c = await open(browser, timer.control_url, { width: 844, height: 390 });
      await v.page.waitForSelector('.face[data-sync="live"]');
      await c.page.getByText("You can control this timer.").waitFor();
      assert.equal(await zoneOf(v.page), "normal");
      // The viewer link is on the control page.
      assert.equal(await c.page.locator("a[data-viewer-link]").getAttribute("href"), timer.viewer_url);
      // Reachable without scrolling on a phone in landscape.
      const last = await c.page.locator(".control-message-actions").boundingBox();
      assert.ok(last && last.y + last.height <= 390, `the message box ends at ${last?.y} + ${last?.height}`);
      await shot(c.page, "show-control-landscape");

      await c.page.keyboard.press("Space");
      await v.page.waitForSelector('.face[data-state="running"]', { timeout: 10_000 });
      // Warning at 2 s left (2 s after the start), on the viewer and the control page alike.
      const t0 = performance.now();
      await v.page.waitForSelector('.face[data-zone="warning"]', { timeout: 3500 });
      const took = performance.now() - t0;
      assert.ok(took > 1000, `warning after ${Math.round(took)} ms, not before its threshold`);
      assert.equal(await v.page.locator(".face-zone-name").innerText(), "WARNING");
      await c.page.waitForSelector('.face[data-zone="warning"]', { timeout: 10_000 });
      await shot(v.page, "show-viewer-warning-1280");

      // A message through …/message, with the control token.
      let sent = performance.now();
      let r = await s.api(
        "PUT",
        `/timers/${timer.timer_id}/message`,
        { text: "Wrap up", color: "red", flash: 2 },
        token,
      );
      assert.equal(r.status, 200);
      const shown = await within(v.page, '.face-message[data-color="red"]', sent, 3000);
      assert.ok(shown < 1000, `message shown after ${Math.round(shown)} ms`);
      assert.equal(await v.page.locator(".face-message").innerText(), "Wrap up");
      assert.equal(await v.page.locator(".face-message").getAttribute("role"), "alert");
      // An action through …/actions, with the control token: +1 min brings it back to normal.
      r = await s.api("POST", `/timers/${timer.timer_id}/actions/adjust?seconds=60`, undefined, token);
      sent = performance.now();
      assert.equal(r.status, 200);
      assert.ok(await within(v.page, '.face[data-zone="normal"]', sent, 3000) < 1000);
      assert.match(await clockText(v.page), /^01:0[0-6]$/);
      // Blackout darkens the viewer; the timer keeps counting underneath.
      r = await s.api("PUT", `/timers/${timer.timer_id}/message`, { blackout: true }, token);
      sent = performance.now();
      const dark = await within(v.page, ".face[data-blackout]", sent, 3000);
      assert.ok(dark < 1000, `blackout after ${Math.round(dark)} ms`);
      const bg = await v.page.evaluate(() => getComputedStyle(document.querySelector(".face")!).backgroundColor);
      assert.equal(bg, "rgb(0, 0, 0)");
      assert.equal(await v.page.locator(".face-time").evaluate((e) => getComputedStyle(e).visibility), "hidden");
      assert.equal(await v.page.locator(".face").getAttribute("data-state"), "running");
      // The operator sees that the blackout is on, and keeps the controls.
      await c.page.getByText("Blackout: the speaker's screen is dark").waitFor({ timeout: 10_000 });
      await shot(v.page, "show-viewer-blackout-1280");
      await c.page.click('button[data-message="clear"]');
      await v.page.waitForSelector(".face:not([data-blackout])", { timeout: 10_000 });
      assert.deepEqual(v.errors, []);
      assert.deepEqual(c.errors, []);
      await v.close();
      await c.close();
    });

    await t.step("the operator's keys and buttons: ±1 min, R resets once confirmed, typing is not a key", async () => {
      const timer = await s.createTimer({ type: "countdown", duration: 300, title: "Panel" });
      const c = await open(browser, timer.control_url, { width: 720, height: 900 });
      await c.page.getByText("You can control this timer.").waitFor();
      await c.page.keyboard.press("Space");
      await c.page.waitForSelector('.face[data-state="running"]');
      const added = async () => (await s.api("GET", `/timers/${timer.timer_id}`)).body.added_seconds;
      /** `added_seconds` once the key's request has been answered (a loaded machine sends it late). */
      const addedBecomes = async (want: number) => {
        let got = await added();
        for (let n = 0; n < 100 && got !== want; n++) {
          await c.page.waitForTimeout(100);
          got = await added();
        }
        return got;
      };
      await c.page.waitForSelector('button[data-adjust="60"]:not([disabled]):not([aria-disabled])');
      await c.page.keyboard.press("+");
      assert.equal(await addedBecomes(60), 60);
      await c.page.waitForFunction(() => /^0[56]:/.test(document.querySelector(".face-time")?.textContent ?? ""));
      await c.page.waitForSelector('button[data-adjust="-10"]:not([aria-disabled])');
      await c.page.click('button[data-adjust="-10"]');
      assert.equal(await addedBecomes(50), 50);
      // Typing in the message box is not a key for the timer.
      await c.page.fill('input[name="text"]', "R + - ");
      await c.page.keyboard.press("Space");
      assert.equal((await s.api("GET", `/timers/${timer.timer_id}`)).body.state, "running");
      await c.page.click('button[data-message="send"]');
      await c.page.waitForSelector(".face-message");
      // R asks once more while running; a second R resets.
      await c.page.locator("h2").click();
      await c.page.keyboard.press("r");
      await c.page.getByText("Press Reset again to confirm.").waitFor({ timeout: 10_000 });
      assert.equal((await s.api("GET", `/timers/${timer.timer_id}`)).body.state, "running");
      await c.page.keyboard.press("r");
      await c.page.waitForSelector('.face[data-state="idle"]', { timeout: 10_000 });
      assert.equal(await added(), 0);
      assert.deepEqual(await axeViolations(c.page), []);
      await c.close();
    });

    await t.step("overtime counts up with a +, danger and overtime in words; screenshots of each zone", async () => {
      const timer = await s.createTimer({ type: "countdown", duration: 3, warn_at: 2, danger_at: 1, overtime: true });
      for (const viewport of [{ width: 1280, height: 720 }, { width: 390, height: 844 }]) {
        const v = await open(browser, timer.viewer_url, viewport);
        await v.page.waitForSelector('.face[data-sync="live"]');
        if (viewport.width === 1280) {
          await s.api("POST", `/timers/${timer.timer_id}/actions/start`);
          await v.page.waitForSelector('.face[data-zone="danger"]', { timeout: 10_000 });
          assert.equal(await v.page.locator(".face-zone-name").innerText(), "DANGER");
          await shot(v.page, "show-viewer-danger-1280");
          await v.page.waitForSelector('.face[data-zone="overtime"]', { timeout: 10_000 });
          // Counting up past zero (a loaded machine may paint +00:02 first).
          await v.page.waitForFunction(
            () => /^\+00:(0[1-9]|[1-5]\d)$/.test(document.querySelector(".face-hms")?.textContent ?? ""),
            null,
            {
              timeout: 10_000,
            },
          );
        }
        assert.match(await v.page.locator(".face-hms").innerText(), /^\+00:\d\d$/);
        assert.equal(await v.page.locator(".face-zone-name").innerText(), "OVERTIME");
        assert.equal(await v.page.locator(".face").getAttribute("data-state"), "running");
        // The stage clock fills most of the width.
        const box = await v.page.locator(".face-time").boundingBox();
        assert.ok(box && box.width >= viewport.width * 0.5, `the clock is ${box?.width} px wide`);
        await shot(v.page, `show-viewer-overtime-${viewport.width}`);
        await v.close();
      }
      await s.api("PUT", `/timers/${timer.timer_id}/message`, { text: "Please finish now", color: "yellow" });
      const w = await open(browser, `${timer.embed_url}&alarm=0`, { width: 320, height: 240 });
      await w.page.waitForSelector('.face[data-sync="live"]');
      assert.equal(await w.page.locator(".face-message").count(), 0, "a widget shows messages only when asked");
      await w.close();
      const m = await open(browser, `${timer.embed_url}&alarm=0&messages=1`, { width: 320, height: 240 });
      await m.page.waitForSelector(".face-message");
      await m.close();
      const small = await open(browser, timer.viewer_url, { width: 390, height: 844 });
      await small.page.waitForSelector(".face-message");
      await shot(small.page, "show-viewer-message-390");
      await small.close();
    });

    await t.step("a timer's sound cues warning, danger and zero, once the browser lets it play", async () => {
      const timer = await s.createTimer({ type: "countdown", duration: 3, warn_at: 2, danger_at: 1, sound: "chime" });
      const v = await open(browser, timer.viewer_url, { width: 390, height: 844 });
      await v.page.waitForSelector('.face[data-sync="live"]');
      const enable = v.page.getByRole("button", { name: "Tap to enable sound" });
      // Headless Chromium usually blocks audio until a tap; where it lets it play at once, there is no button.
      if (await enable.waitFor({ timeout: 10_000 }).then(() => true, () => false)) {
        await enable.click();
        await enable.waitFor({ state: "detached" });
      }
      await s.api("POST", `/timers/${timer.timer_id}/actions/start`);
      for (const [cue, n] of [["warning", 1], ["danger", 2], ["zero", 3]] as const) {
        await v.page.waitForSelector(`[data-cue="${cue}"][data-alarm-played="${n}"]`, {
          state: "attached",
          timeout: 10_000,
        });
      }
      assert.deepEqual(v.errors, []);
      await v.close();
    });

    await t.step(
      "screenshots: each zone, a message and a blackout, at 1280×720 and 390×844 (tests/artifacts/)",
      async () => {
        const make = async (body: Record<string, unknown>) => {
          const timer = await s.createTimer({ type: "countdown", title: "Keynote", ...body });
          await s.api("POST", `/timers/${timer.timer_id}/actions/start`);
          return timer;
        };
        const cases: [string, Awaited<ReturnType<typeof make>>, string][] = [
          ["normal", await make({ duration: 1200, warn_at: 60 }), "normal"],
          ["warning", await make({ duration: 1200, warn_at: 1199 }), "warning"],
          ["danger", await make({ duration: 1200, warn_at: 1199, danger_at: 1198 }), "danger"],
          ["overtime", await make({ duration: 1, overtime: true }), "overtime"],
        ];
        const message = await make({ duration: 1200 });
        await s.api("PUT", `/timers/${message.timer_id}/message`, {
          text: "Five minutes left — wrap up",
          color: "yellow",
        });
        const dark = await make({ duration: 1200 });
        await s.api("PUT", `/timers/${dark.timer_id}/message`, { blackout: true });
        for (const viewport of [{ width: 1280, height: 720 }, { width: 390, height: 844 }]) {
          for (const [name, timer, zone] of cases) {
            const v = await open(browser, timer.viewer_url, viewport);
            await v.page.waitForSelector(`.face[data-zone="${zone}"]`, { timeout: 10_000 });
            await shot(v.page, `show-zone-${name}-${viewport.width}x${viewport.height}`);
            await v.close();
          }
          const m = await open(browser, message.viewer_url, viewport);
          await m.page.waitForSelector(".face-message");
          await shot(m.page, `show-message-${viewport.width}x${viewport.height}`);
          await m.close();
          const b = await open(browser, dark.viewer_url, viewport);
          await b.page.waitForSelector(".face[data-blackout]");
          await shot(b.page, `show-blackout-${viewport.width}x${viewport.height}`);
          await b.close();
        }
      },
    );
  } finally {
    await browser.close();
    await s.close();
  }
});
