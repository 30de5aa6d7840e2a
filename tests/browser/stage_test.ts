/**
 * A rundown's stage view in headless Chromium, in real time: /r/<id> shows item 2's title and face
 * within a second of item 1 ending (a linked advance by the scheduler), without reloading, and
 * "Next: <item 3>".
 */
import assert from "node:assert/strict";
import { ensureBuilt, hydrated, launch, serve, shot, watchErrors } from "./harness.ts";

/** Waits until `ok` holds (checked every 50 ms), failing after `ms`. */
async function waitUntil(ok: () => Promise<boolean>, ms = 5000) {
  const end = performance.now() + ms;
  while (!(await ok())) {
    if (performance.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 50));
  }
}

Deno.test("the stage follows a linked rundown without reloading", async () => {
  await ensureBuilt();
  const s = await serve();
  s.app.scheduler.start();
  const browser = await launch();
  try {
    const r = await s.api("POST", "/rundowns", {
      title: "Morning",
      mode: "linked",
      items: [
        { type: "countdown", title: "Opening", duration: 2 },
        { type: "countdown", title: "Keynote", duration: 60 },
        { type: "countdown", title: "Panel </script><b>x</b>", duration: 60 },
      ],
    });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(r.body.stage_url);
    await hydrated(page);
    // A marker that a reload would lose.
    await page.evaluate(() => (globalThis as unknown as { stayed: boolean }).stayed = true);
    assert.equal(await page.locator(".face-title").innerText(), "Opening");
    assert.equal(await page.locator(".stage-next").innerText(), "Next: Keynote");

    assert.equal((await s.api("POST", `/rundowns/${r.body.rundown_id}/actions/start`)).status, 200);
    await page.waitForSelector('.face[data-state="running"]', { timeout: 10_000 });
    const started = performance.now();
    await page.waitForFunction(() => document.querySelector(".face-title")?.textContent === "Keynote", null, {
      timeout: 4000,
    });
    const after = performance.now() - started;
    assert.ok(after < 3000, `item 2 shown ${Math.round(after)} ms after item 1 started (2 s long)`);
    await page.waitForSelector('.face[data-state="running"]', { timeout: 10_000 });
    assert.equal(await page.locator(".stage-next").innerText(), "Next: Panel </script><b>x</b>");
    assert.equal(await page.locator(".stage-next b").count(), 0, "titles are text");
    const box = await page.locator(".stage-next").boundingBox();
    assert.ok(box && box.y >= 0 && box.y + box.height <= 720, `"Next:" on screen: ${JSON.stringify(box)}`);
    assert.equal(await page.evaluate(() => (globalThis as unknown as { stayed?: boolean }).stayed), true);
    await shot(page, "stage-linked-1280");
    assert.deepEqual(errors, []);
    await context.close();
  } finally {
    await browser.close();
    await s.close();
  }
});

Deno.test("the rundown's control page moves the show with its token; the agenda marks the live item", async () => {
  await ensureBuilt();
  const s = await serve();
  const browser = await launch();
  try {
    const r = await s.api("POST", "/rundowns", {
      title: "Evening",
      items: [
        { type: "countdown", title: "One", duration: 300 },
        { type: "countdown", title: "Two", duration: 300 },
      ],
    });
    const context = await browser.newContext({ viewport: { width: 844, height: 390 } });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(r.body.control_url);
    await hydrated(page);
    await page.waitForSelector('button[data-action="start"]:not([disabled])', { timeout: 10_000 });
    await page.click('button[data-action="start"]');
    await page.waitForSelector('.rundown-control[data-state="running"]', { timeout: 10_000 });
    await page.click('button[data-action="next"]');
    await page.waitForSelector('.rundown-control[data-current="1"]', { timeout: 10_000 });
    const read = await s.api("GET", `/rundowns/${r.body.rundown_id}`);
    assert.equal(read.body.current, 1);
    assert.equal(read.body.items[1].state, "running");
    // Next at the last item is refused, and the page says why.
    await page.click('button[data-action="next"]');
    await page.waitForSelector(".rundown-problem", { timeout: 10_000 });
    assert.match(await page.locator(".rundown-problem").innerText(), /last item/);
    await shot(page, "rundown-control-844");

    await page.goto(r.body.agenda_url);
    assert.equal(await page.locator('tr[data-live="1"] td').nth(1).innerText(), "Two");
    // The refused next is the one failed request (Chromium logs it); nothing else went wrong.
    assert.deepEqual(errors.filter((e) => !e.includes("status of 409")), []);
    await context.close();
  } finally {
    await browser.close();
    await s.close();
  }
});

Deno.test("the control page adjusts the live item and sets messages; the stage shows the show's message across items", async () => {
  await ensureBuilt();
  const s = await serve();
  const browser = await launch();
  try {
    const r = await s.api("POST", "/rundowns", {
      title: "Afternoon",
      items: [
        { type: "countdown", title: "One", duration: 300 },
        { type: "countdown", title: "Two", duration: 300 },
      ],
    });
    const id = r.body.rundown_id;
    const context = await browser.newContext({ viewport: { width: 1024, height: 768 } });
    const control = await context.newPage();
    const stage = await context.newPage();
    const errors = [...watchErrors(control), ...watchErrors(stage)];
    await control.goto(r.body.control_url);
    await hydrated(control);
    await stage.goto(r.body.stage_url);
    await hydrated(stage);
    assert.equal(await control.locator("[data-stage-link]").getAttribute("href"), r.body.stage_url);
    assert.equal(await control.locator("[data-agenda-link]").getAttribute("href"), r.body.agenda_url);

    await control.waitForSelector('button[data-action="start"]:not([disabled])', { timeout: 10_000 });
    await control.click('button[data-action="start"]');
    await control.waitForSelector('button[data-adjust="60"]:not([disabled])', { timeout: 10_000 });
    await control.click('button[data-adjust="60"]');
    await waitUntil(async () => (await s.api("GET", `/rundowns/${id}`)).body.items[0].remaining_seconds > 330);

    // The show's message: on the stage within a second.
    const show = control.locator('[data-message-target="rundown"]');
    await show.locator('input[name="text"]').fill("Lunch at 12:30");
    await show.locator('select[name="color"]').selectOption("yellow");
    await show.locator('button[data-message="send"]').click();
    await stage.waitForFunction(
      () => document.querySelector(".face-message")?.textContent === "Lunch at 12:30",
      null,
      { timeout: 3000 },
    );
    assert.equal(await stage.locator(".face-message").getAttribute("data-color"), "yellow");

    // The item's own message wins while set.
    const item = control.locator('[data-message-target="item"]');
    await item.locator('input[name="text"]').fill("Wrap up");
    await item.locator('button[data-message="send"]').click();
    await stage.waitForFunction(() => document.querySelector(".face-message")?.textContent === "Wrap up", null, {
      timeout: 3000,
    });
    await shot(stage, "stage-item-message-1024");

    // Next: item Two has no message of its own, so the show's is back, without a reload.
    await control.click('button[data-action="next"]');
    await stage.waitForFunction(() => document.querySelector(".face-title")?.textContent === "Two", null, {
      timeout: 3000,
    });
    await stage.waitForFunction(
      () => document.querySelector(".face-message")?.textContent === "Lunch at 12:30",
      null,
      { timeout: 3000 },
    );
    await shot(control, "rundown-control-live-1024");

    // Cleared from the control page: gone from the stage.
    await show.locator('button[data-message="clear"]').click();
    await stage.waitForFunction(() => !document.querySelector(".face-message"), null, { timeout: 3000 });
    for (const url of [r.body.stage_url, r.body.agenda_url]) {
      const res = await fetch(url);
      assert.equal(res.status, 200, url);
      await res.body?.cancel();
    }
    assert.deepEqual(errors, []);
    await context.close();
  } finally {
    await browser.close();
    await s.close();
  }
});

Deno.test("/widget?rundown=<id> follows the show in an embed at 320×240, with messages=1", async () => {
  await ensureBuilt();
  const s = await serve();
  const browser = await launch();
  try {
    const r = await s.api("POST", "/rundowns", {
      title: "Embed",
      items: [
        { type: "countdown", title: "First", duration: 120 },
        { type: "countdown", title: "Second", duration: 120 },
      ],
    });
    const id = r.body.rundown_id;
    const context = await browser.newContext({ viewport: { width: 320, height: 240 } });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${s.url}/widget?rundown=${id}&messages=1&theme=light&lang=fr`);
    await hydrated(page);
    await page.evaluate(() => (globalThis as unknown as { stayed: boolean }).stayed = true);
    assert.equal(await page.locator(".face-title").innerText(), "First");
    assert.equal(await page.locator(".face--widget").count(), 1);
    assert.equal(await page.locator(".stage-next").innerText(), "Suivant: Second");
    assert.equal((await s.api("POST", `/rundowns/${id}/actions/start`)).status, 200);
    await page.waitForSelector('.face[data-state="running"]', { timeout: 5000 });
    assert.equal((await s.api("PUT", `/rundowns/${id}/message`, { text: "Pause café" })).status, 200);
    await page.waitForFunction(() => document.querySelector(".face-message")?.textContent === "Pause café", null, {
      timeout: 3000,
    });
    assert.equal((await s.api("POST", `/rundowns/${id}/actions/next`)).status, 200);
    await page.waitForFunction(() => document.querySelector(".face-title")?.textContent === "Second", null, {
      timeout: 3000,
    });
    assert.equal(await page.evaluate(() => (globalThis as unknown as { stayed?: boolean }).stayed), true);
    const time = await page.locator(".face-time").boundingBox();
    assert.ok(
      time && time.x >= 0 && time.x + time.width <= 320 && time.y >= 0,
      `time on screen: ${JSON.stringify(time)}`,
    );
    await shot(page, "widget-rundown-320x240");
    assert.deepEqual(errors, []);
    await context.close();
  } finally {
    await browser.close();
    await s.close();
  }
});
