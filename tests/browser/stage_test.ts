/**
 * A rundown's stage view in headless Chromium, in real time: /r/<id> shows item 2's title and face
 * within a second of item 1 ending (a linked advance by the scheduler), without reloading, and
 * "Next: <item 3>".
 */
import assert from "node:assert/strict";
import { ensureBuilt, hydrated, launch, serve, shot, watchErrors } from "./harness.ts";

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
