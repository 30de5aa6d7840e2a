/**
 * The Webhooks tab's Endpoints section in headless Chromium: add an endpoint from the form, see it
 * listed, disable it; axe-clean and without sideways scrolling at a phone's and a desktop's width
 * (screenshots in tests/artifacts/).
 */
import assert from "node:assert/strict";
import { axeViolations, ensureBuilt, launch, serve, shot } from "./harness.ts";

Deno.test({
  name:
    "the Endpoints section adds and disables an endpoint in a browser, at a phone's and a desktop's width, light and dark",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    await ensureBuilt();
    const srv = await serve();
    const browser = await launch();
    try {
      (srv.config as { signupPlan: string }).signupPlan = "pro";
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      page.setDefaultTimeout(30_000); // a loaded machine hashes a sign-up in seconds
      await page.goto(`${srv.url}/signup`);
      await page.getByLabel("Email").fill(`endpoints-${crypto.randomUUID().slice(0, 8)}@example.com`);
      await page.getByLabel("Password").fill("correct horse battery staple");
      await page.getByRole("button", { name: "Sign up", exact: true }).click();
      await page.waitForURL(`${srv.url}/signup/check`);
      for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
        await page.setViewportSize(viewport);
        await page.goto(`${srv.url}/dashboard/webhooks`);
        const n = viewport.width;
        await page.fill(
          "#endpoints form[action='/dashboard/webhooks/endpoints'] input[name=url]",
          `https://example.com/${n}`,
        );
        await page.fill("#endpoints form[action='/dashboard/webhooks/endpoints'] input[name=description]", "Relay");
        await page.check("#endpoints form[action='/dashboard/webhooks/endpoints'] input[value=some]");
        await page.check("#endpoints form[action='/dashboard/webhooks/endpoints'] input[name='ev.timer.completed']");
        await page.click("#endpoints form[action='/dashboard/webhooks/endpoints'] button[type=submit]");
        await page.waitForURL(/\/dashboard\/webhooks#endpoints$/);
        assert.match(await page.locator(".flash").innerText(), new RegExp(`https://example.com/${n} added`));
        const listed = page.locator(`#endpoints article.endpoint:has-text("https://example.com/${n}")`);
        assert.match(await listed.innerText(), /timer\.completed/);
        const wide = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
        assert.ok(wide <= 1, `${n}: the page scrolls sideways by ${wide}px`);
        assert.deepEqual(await axeViolations(page), [], `${n}: axe`);
        await shot(page, `dashboard-endpoints-${n}`, { fullPage: true });
        await listed.locator("button", { hasText: "Disable" }).click();
        await page.waitForURL(/\/dashboard\/webhooks#endpoints$/);
        assert.match(
          await page.locator(`#endpoints article.endpoint:has-text("https://example.com/${n}")`).innerText(),
          /Disabled/,
        );
      }
      assert.equal(await page.locator("#endpoints article.endpoint").count(), 2);
      await page.emulateMedia({ colorScheme: "dark" });
      assert.deepEqual(await axeViolations(page), [], "dark: axe");
      await shot(page, "dashboard-endpoints-390-dark", { fullPage: true });
      await context.close();
    } finally {
      await browser.close();
      await srv.close();
    }
  },
});
