/**
 * The viewer left on a screen, in headless Chromium: the wake lock follows the count (spied), the
 * reconnecting badge shows once the live stream has been down 5 s and goes on reconnect, and full
 * screen comes with the button or the `f` key.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { cutProxy } from "./cut_proxy.ts";
import { ensureBuilt, hydrated, launch, serve, shot, watchErrors } from "./harness.ts";

/** Replaces navigator.wakeLock with a spy that counts requests and releases. */
const WAKE_LOCK_SPY = () => {
  const spy = { requests: 0, releases: 0, held: 0, last: null as null | EventTarget & { release(): Promise<void> } };
  (globalThis as unknown as { wakeSpy: typeof spy }).wakeSpy = spy;
  Object.defineProperty(navigator, "wakeLock", {
    configurable: true,
    value: {
      request(type: string) {
        spy.requests++;
        spy.held++;
        const sentinel = Object.assign(new EventTarget(), {
          type,
          released: false,
          release() {
            if (!sentinel.released) {
              sentinel.released = true;
              spy.releases++;
              spy.held--;
              sentinel.dispatchEvent(new Event("release"));
            }
            return Promise.resolve();
          },
        });
        spy.last = sentinel;
        return Promise.resolve(sentinel);
      },
    },
  });
};

const spyOf = (page: Page) =>
  page.evaluate(() => {
    const s = (globalThis as unknown as { wakeSpy: { requests: number; releases: number; held: number } }).wakeSpy;
    return { requests: s.requests, releases: s.releases, held: s.held };
  });

async function waitSpy(page: Page, want: { requests: number; held: number }, timeout = 2000) {
  await page.waitForFunction(
    ([r, h]) => {
      const s = (globalThis as unknown as { wakeSpy: { requests: number; held: number } }).wakeSpy;
      return s.requests === r && s.held === h;
    },
    [want.requests, want.held] as const,
    { timeout },
  ).catch(async () =>
    assert.fail(`wake lock: wanted ${JSON.stringify(want)}, got ${JSON.stringify(await spyOf(page))}`)
  );
}

Deno.test("the viewer on a screen left running", async (t) => {
  await ensureBuilt();
  const s = await serve();
  const browser = await launch();
  const act = async (id: string, action: string) => {
    const r = await s.api("PATCH", `/timers/${id}/state`, { action });
    assert.equal(r.status, 200, JSON.stringify(r.body));
  };
  try {
    await t.step(
      "a wake lock is held while the timer counts, asked again on return, released when it stops",
      async () => {
        const timer = await s.createTimer({ type: "countdown", duration: 3, title: "Wake" });
        const context = await browser.newContext({ viewport: { width: 480, height: 400 } });
        await context.addInitScript(WAKE_LOCK_SPY);
        const page = await context.newPage();
        const errors = watchErrors(page);
        await page.goto(`${timer.viewer_url}?alarm=0`);
        await hydrated(page);
        await page.waitForSelector('.face[data-sync="live"][data-state="idle"]');
        assert.deepEqual(await spyOf(page), { requests: 0, releases: 0, held: 0 }, "not counting: no lock");
        await act(timer.timer_id, "start");
        await waitSpy(page, { requests: 1, held: 1 });
        await act(timer.timer_id, "pause");
        await waitSpy(page, { requests: 1, held: 0 });
        await act(timer.timer_id, "resume");
        await waitSpy(page, { requests: 2, held: 1 });
        // The browser drops the lock when the tab is hidden; on return the page asks again.
        await page.evaluate(() => {
          (globalThis as unknown as { wakeSpy: { last: { release(): Promise<void> } } }).wakeSpy.last.release();
          document.dispatchEvent(new Event("visibilitychange"));
        });
        await waitSpy(page, { requests: 3, held: 1 });
        await page.waitForSelector('.face[data-state="completed"]', { timeout: 5000 });
        await waitSpy(page, { requests: 3, held: 0 });
        assert.deepEqual(errors, []);
        await context.close();
      },
    );

    await t.step(
      "the badge shows within 6 s of the stream being blocked, the face counts on, and it goes on reconnect",
      async () => {
        const timer = await s.createTimer({ type: "countdown", duration: 600, title: "Keynote" });
        await act(timer.timer_id, "start");
        const context = await browser.newContext({ viewport: { width: 560, height: 420 } });
        const page = await context.newPage();
        const errors = watchErrors(page);
        const proxy = cutProxy(Number(new URL(s.url).port));
        try {
          await page.goto(`${proxy.url}/v/${timer.timer_id}?alarm=0`);
          await hydrated(page);
          await page.waitForSelector('.face[data-sync="live"]');
          // Block the live stream: the open connection is cut, new ones to /live are aborted.
          await page.route("**/live/**", (route) => route.abort());
          const t0 = performance.now();
          proxy.cut();
          await page.waitForSelector('.face[data-sync="connecting"]', { timeout: 3000 });
          assert.equal(await page.locator(".screen-badge").count(), 0, "not at once: a short drop says nothing");
          const before = await page.locator(".face-hms").innerText();
          await page.waitForSelector(".screen-badge", { timeout: 6000 });
          const took = performance.now() - t0;
          assert.ok(took >= 4900 && took <= 6000, `the badge showed ${Math.round(took)} ms after the block`);
          assert.match(await page.locator(".screen-badge").innerText(), /Reconnecting/);
          assert.notEqual(await page.locator(".face-hms").innerText(), before, "the face keeps counting");
          await shot(page, "screens-reconnecting-badge");
          // Meanwhile the timer is paused through the API; on reconnect the face shows it within a second.
          await act(timer.timer_id, "pause");
          const api = await s.api("GET", `/timers/${timer.timer_id}`);
          proxy.restore();
          await page.unroute("**/live/**");
          await page.waitForSelector('.face[data-state="paused"][data-sync="live"]', { timeout: 5000 });
          assert.equal(await page.locator(".screen-badge").count(), 0, "the badge goes on reconnect");
          const shown = await page.locator(".face-hms").innerText();
          const [m, sec] = shown.split(":").map(Number);
          assert.equal(m * 60 + sec, api.body.remaining_seconds, `${shown} vs ${api.body.remaining_seconds} s`);
          // Blocked requests are logged as console errors; nothing else may be.
          assert.deepEqual(errors.filter((e) => !/live|ERR_/.test(e)), []);
        } finally {
          await context.close();
          await proxy.close();
        }
      },
    );
    await t.step("a stream that goes silent without an error is dropped and opened again", async () => {
      const timer = await s.createTimer({ type: "countdown", duration: 600, title: "Asleep" });
      await act(timer.timer_id, "start");
      const context = await browser.newContext({ viewport: { width: 480, height: 400 } });
      const page = await context.newPage();
      const proxy = cutProxy(Number(new URL(s.url).port));
      try {
        await page.goto(`${proxy.url}/v/${timer.timer_id}?alarm=0`);
        await hydrated(page);
        await page.waitForSelector('.face[data-sync="live"]');
        // The connection stays open but nothing more comes through it, and no error either.
        const t0 = performance.now();
        proxy.freeze();
        await page.waitForSelector('.face[data-sync="connecting"]', { timeout: 35_000 });
        const noticed = performance.now() - t0;
        assert.ok(noticed > 15_000 && noticed < 32_000, `silence noticed after ${Math.round(noticed)} ms`);
        await page.waitForSelector(".screen-badge", { timeout: 6000 });
        await act(timer.timer_id, "pause");
        proxy.restore();
        // The frozen bytes come through now, then the stream opened by the watchdog.
        await page.waitForSelector('.face[data-state="paused"][data-sync="live"]', { timeout: 30_000 });
        await page.waitForSelector(".screen-badge", { state: "detached", timeout: 1000 });
      } finally {
        await context.close();
        await proxy.close();
      }
    });

    await t.step("full screen with the button and the f key", async () => {
      const timer = await s.createTimer({ type: "countdown", duration: 60, title: "Full" });
      const context = await browser.newContext({ viewport: { width: 480, height: 400 } });
      const page = await context.newPage();
      const errors = watchErrors(page);
      await page.goto(timer.viewer_url);
      await hydrated(page);
      const fullscreen = () => page.evaluate(() => document.fullscreenElement !== null);
      const button = page.getByRole("button", { name: "Full screen" });
      await button.waitFor();
      await page.keyboard.press("f");
      await page.waitForFunction(() => document.fullscreenElement !== null, null, { timeout: 2000 });
      await page.getByRole("button", { name: "Exit full screen" }).waitFor();
      await page.keyboard.press("f");
      await page.waitForFunction(() => document.fullscreenElement === null, null, { timeout: 2000 });
      await button.click();
      assert.ok(await page.waitForFunction(() => document.fullscreenElement !== null).then(fullscreen));
      await page.getByRole("button", { name: "Exit full screen" }).click();
      await page.waitForFunction(() => document.fullscreenElement === null, null, { timeout: 2000 });
      // The widget (in a frame, sized by its host) has no such button.
      await page.goto(`${s.url}/widget?id=${timer.timer_id}`);
      await hydrated(page);
      assert.equal(await page.locator(".screen-fullscreen").count(), 0);
      assert.deepEqual(errors, []);
      await context.close();
    });
  } finally {
    await browser.close();
    await s.close();
  }
});
