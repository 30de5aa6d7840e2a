/**
 * The account's logs in headless Chromium: an account endpoint receives the `timer.completed` of
 * a timer that has no webhook_url, and the Deliveries page (reached from the navigation) shows
 * that delivery's payload and the receiver's answer, as text; the API requests page shows a
 * control token's 422 by its request id and never the token. Axe-clean, no sideways scrolling,
 * screenshots at a desktop's and a phone's size in tests/artifacts/.
 */
import assert from "node:assert/strict";
import { axeViolations, ensureBuilt, launch, serve, shot } from "./harness.ts";
import { receiver } from "../helpers.ts";

Deno.test({
  name:
    "an endpoint receives timer.completed of a timer without webhook_url; the delivery log shows its payload and answer",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    await ensureBuilt();
    const srv = await serve();
    srv.app.scheduler.start();
    // The receiver's answer carries markup: the log must show it as text, never run or render it.
    const rx = receiver(() =>
      new Response('{"received":true,"note":"<b id=injected>thanks</b><script>document.title=1</script>"}', {
        headers: { "content-type": "application/json", "x-receiver": "browser-test" },
      })
    );
    const browser = await launch();
    try {
      (srv.config as { signupPlan: string }).signupPlan = "pro";
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      page.setDefaultTimeout(30_000);
      await page.goto(`${srv.url}/signup`);
      await page.getByLabel("Email").fill(`logs-${crypto.randomUUID().slice(0, 8)}@example.com`);
      await page.getByLabel("Password").fill("correct horse battery staple");
      await page.getByRole("button", { name: "Sign up", exact: true }).click();
      await page.waitForURL(`${srv.url}/signup/check`);

      // An account endpoint that wants timer.completed.
      await page.goto(`${srv.url}/dashboard/webhooks`);
      const add = "#endpoints form[action='/dashboard/webhooks/endpoints']";
      await page.fill(`${add} input[name=url]`, rx.url);
      await page.check(`${add} input[value=some]`);
      await page.check(`${add} input[name='ev.timer.completed']`);
      await page.click(`${add} button[type=submit]`);
      await page.waitForURL(/\/dashboard\/webhooks#endpoints$/);

      // A timer without a webhook URL, started with its control token (the API's request log files it under the account).
      await page.goto(`${srv.url}/dashboard/timers`);
      await page.locator("#new").getByLabel("Title").fill("Log demo");
      await page.getByLabel("Duration in seconds").fill("1");
      await page.getByRole("button", { name: "Create timer" }).click();
      await page.waitForURL(/\/dashboard\/timers\/tmr_\w+$/);
      const controlUrl = await page.locator("#control-url").inputValue();
      const timerId = controlUrl.match(/\/c\/(tmr_\w+)#/)![1];
      const token = controlUrl.split("#")[1];
      const control = (body: unknown) =>
        fetch(`${srv.url}/api/v1/timers/${timerId}/state`, {
          method: "PATCH",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: JSON.stringify(body),
        });
      const refused = await control({ action: "explode" });
      assert.equal(refused.status, 422);
      const refusedId = refused.headers.get("x-request-id")!;
      await refused.body?.cancel();
      const started = await control({ action: "start" });
      assert.equal(started.status, 200);
      await started.body?.cancel();
      assert.equal((await srv.store.getTimer(timerId))!.timer.webhook_url, null, "the timer has no webhook_url");

      await rx.waitFor(1);
      assert.equal(rx.received[0].json.event, "timer.completed");
      assert.equal(rx.received[0].json.timer_id, timerId);
      const eventId = rx.received[0].json.id as string;

      for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
        const n = viewport.width;
        await page.setViewportSize(viewport);
        await page.goto(`${srv.url}/dashboard`);
        // Reached from the navigation (on a phone too).
        await page.locator(".dash-nav").getByRole("link", { name: "Deliveries" }).click();
        await page.waitForURL(`${srv.url}/dashboard/deliveries`);
        const item = page.locator(`li.delivery[data-delivery="${eventId}"]`);
        // Recorded just after it was sent: read again until it shows succeeded.
        for (let i = 0; i < 100 && await item.getAttribute("data-state") !== "succeeded"; i++) {
          await new Promise((r) => setTimeout(r, 100));
          await page.reload();
        }
        assert.equal(await item.getAttribute("data-state"), "succeeded");
        await item.locator("summary", { hasText: "Payload sent" }).click();
        await item.locator("summary", { hasText: /^Attempts/ }).click();
        await item.locator("summary", { hasText: "Answer to attempt #1" }).click();
        const payload = JSON.parse(await item.locator("pre[data-payload]").innerText());
        assert.deepEqual([payload.id, payload.event, payload.timer_id], [eventId, "timer.completed", timerId]);
        const body = await item.locator("pre[data-body='1']").innerText();
        assert.ok(body.includes('"note":"<b id=injected>thanks</b><script>'), body);
        assert.equal(await page.locator("#injected").count(), 0, "the answer is text, not markup");
        assert.notEqual(await page.title(), "1", "its script never ran");
        assert.match(await item.locator("pre[data-headers='1']").innerText(), /x-receiver: browser-test/);
        assert.match(await item.innerText(), /To the endpoint/);
        const wide = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
        assert.ok(wide <= 1, `${n}: the page scrolls sideways by ${wide}px`);
        assert.deepEqual(await axeViolations(page), [], `${n}: axe`);
        await shot(page, `dashboard-deliveries-${n}`, { fullPage: n === 390 });

        // Filters: event type and state narrow it; a state none has shows nothing.
        await page.selectOption("select[name=event]", "timer.completed");
        await page.selectOption("select[name=status]", "failed");
        await page.getByRole("button", { name: "Filter" }).click();
        await page.waitForURL(/status=failed/);
        assert.equal(await page.locator("li.delivery").count(), 0);
        assert.match(await page.locator("main").innerText(), /No deliveries match/);
        await page.selectOption("select[name=status]", "succeeded");
        await page.fill("input[name=timer_id]", timerId);
        await page.getByRole("button", { name: "Filter" }).click();
        await page.waitForURL(/status=succeeded/);
        assert.equal(await page.locator("li.delivery").count(), 1);

        // The API request log: the 422 by its request id, never the control token.
        await page.locator(".dash-nav").getByRole("link", { name: "API requests" }).click();
        await page.waitForURL(`${srv.url}/dashboard/requests`);
        const row = page.locator(`tr[data-request="${refusedId}"]`);
        assert.equal(await row.getAttribute("data-status"), "422");
        assert.match(await row.innerText(), /PATCH \/api\/v1\/timers\/tmr_\w+\/state/);
        assert.ok(!(await page.content()).includes(token), "no control token on the page");
        const wideRq = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
        assert.ok(wideRq <= 1, `${n}: the requests page scrolls sideways by ${wideRq}px`);
        assert.deepEqual(await axeViolations(page), [], `${n}: requests axe`);
        await shot(page, `dashboard-requests-${n}`, { fullPage: n === 390 });
        await page.fill("input[name=status]", "4xx");
        await page.getByRole("button", { name: "Filter" }).click();
        await page.waitForURL(/status=4xx/);
        assert.equal(await page.locator("tr[data-request]").count(), 1);
      }
      // Redelivering the succeeded delivery from the log: it arrives again with the same id.
      await page.goto(`${srv.url}/dashboard/deliveries?event=timer.completed`);
      await page.locator(`li.delivery[data-delivery="${eventId}"]`).getByRole("button", { name: /Redeliver/ }).click();
      await page.waitForURL(`${srv.url}/dashboard/deliveries?event=timer.completed`);
      assert.match(await page.locator(".flash").innerText(), /Delivery queued again/);
      await rx.waitFor(2);
      assert.equal(rx.received[1].json.id, eventId);
      await page.emulateMedia({ colorScheme: "dark" });
      await page.goto(`${srv.url}/dashboard/deliveries`);
      assert.deepEqual(await axeViolations(page), [], "dark: axe");
      await shot(page, "dashboard-deliveries-390-dark", { fullPage: true });
      await context.close();
    } finally {
      await browser.close();
      await rx.close();
      await srv.close();
    }
  },
});
