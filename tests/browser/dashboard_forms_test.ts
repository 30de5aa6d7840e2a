/**
 * Dashboard pages with what users type: long unbroken names stay inside their tables at a
 * tablet's and a desktop's width, the control link shown once fits a phone, and a refused form
 * of the account page is answered inside the dashboard, where the next try returns.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { ensureBuilt, focusedBy, launch, serve, watchErrors } from "./harness.ts";

const PHONE = { width: 360, height: 640 };
const TABLET = { width: 768, height: 1024 };
const DESKTOP = { width: 1440, height: 900 };

/** How far the page, or the table box holding `selector`, scrolls sideways. */
function sideways(page: Page, selector: string) {
  return page.evaluate((sel) => {
    const wrap = document.querySelector(sel)?.closest(".table-wrap") as HTMLElement | null;
    return {
      page: document.documentElement.scrollWidth - innerWidth,
      table: wrap ? wrap.scrollWidth - wrap.clientWidth : 0,
    };
  }, selector);
}

/** Whether the element lies wholly inside the viewport's width. */
async function inView(page: Page, selector: string) {
  const box = (await page.locator(selector).first().boundingBox())!;
  return box.x >= 0 && box.x + box.width <= page.viewportSize()!.width;
}

Deno.test("dashboard forms with long input, at phone, tablet and desktop widths", async (t) => {
  await ensureBuilt();
  const s = await serve();
  (s.config as { signupPlan: string }).signupPlan = "pro";
  const browser = await launch();
  const context = await browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  page.setDefaultTimeout(30_000); // a bound on waiting for conditions: a loaded machine hashes a sign-up in seconds
  const errors = watchErrors(page);
  const email = `forms-${crypto.randomUUID().slice(0, 8)}@example.com`;
  try {
    await page.goto(`${s.url}/signup`);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("correct horse battery staple");
    await page.getByRole("button", { name: "Sign up", exact: true }).click();
    await page.waitForURL(`${s.url}/signup/check`);

    await t.step("a key named with one long word keeps its Revoke button in view", async () => {
      const name = "ProductionEuWestKubernetesIngressControllerClusterPrimaryOne".slice(0, 60);
      await page.goto(`${s.url}/dashboard/keys`);
      await page.getByLabel("Name").fill(name);
      await page.getByRole("button", { name: "Create key" }).click();
      await page.goto(`${s.url}/dashboard/keys`);
      for (const viewport of [TABLET, DESKTOP]) {
        await page.setViewportSize(viewport);
        assert.deepEqual(await sideways(page, "tr[data-key]"), { page: 0, table: 0 }, `${viewport.width} px`);
        assert.ok(await inView(page, `button:has-text("Revoke")`), `Revoke in view at ${viewport.width} px`);
      }
    });

    await t.step("a timer titled with one long word keeps its actions in view", async () => {
      await page.setViewportSize(TABLET);
      await page.goto(`${s.url}/dashboard/timers`);
      await page.locator("#new").getByLabel("Title").fill("W".repeat(100));
      await page.getByLabel("Duration in seconds").fill("60");
      await page.getByRole("button", { name: "Create timer" }).click();
      await page.locator("#control-url").waitFor();
      await page.goto(`${s.url}/dashboard/timers`);
      await page.locator("tr[data-timer]").waitFor();
      assert.deepEqual(await sideways(page, "tr[data-timer]"), { page: 0, table: 0 });
      assert.ok(await inView(page, `tr[data-timer] button:has-text("Start")`), "Start in view");
    });

    await t.step("the control link shown once after creating a timer fits a phone", async () => {
      await page.setViewportSize(PHONE);
      await page.goto(`${s.url}/dashboard/timers`);
      await page.locator("#new").getByLabel("Title").fill("Tea");
      await page.getByLabel("Duration in seconds").fill("60");
      await page.getByRole("button", { name: "Create timer" }).click();
      await page.locator("#control-url").waitFor();
      const wide = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
      assert.ok(wide <= 1, `the page scrolls sideways by ${wide}px`);
      assert.ok(await inView(page, ".card--secret a"));
      // Its explanation is written once, as the field's label.
      const card = await page.locator(".card--secret").innerText();
      assert.equal(card.split("shown only once").length - 1, 1, card);
      await page.setViewportSize(DESKTOP);
      assert.deepEqual(errors, []);
    });

    await t.step("a refused timer or key form puts the cursor in the field the error is about", async () => {
      await page.goto(`${s.url}/dashboard/timers`);
      await page.locator("#new").getByLabel("Title").fill("Typo");
      await page.getByLabel("Duration in seconds").fill("6o");
      await page.getByRole("button", { name: "Create timer" }).click();
      await page.locator("#create-error").waitFor();
      assert.equal(await focusedBy(page, "name", "duration"), "duration");
      assert.equal(await page.getByLabel("Duration in seconds").inputValue(), "6o");
      await page.goto(`${s.url}/dashboard/keys`);
      await page.getByLabel("Name").fill("   ");
      await page.getByRole("button", { name: "Create key" }).click();
      await page.locator("#key-name-error").waitFor();
      assert.equal(await focusedBy(page, "name", "name"), "name");
    });

    await t.step("a refused account form is answered in the dashboard and returns there", async () => {
      await page.goto(`${s.url}/dashboard/account`);
      await page.getByLabel("Type your email to confirm").fill("someone-else@example.com");
      await page.getByRole("button", { name: "Delete the account" }).click();
      await page.getByText("type the account's email exactly").waitFor();
      assert.equal(await focusedBy(page, "id", "confirm"), "confirm");
      assert.equal(await page.locator('.dash-nav a[aria-current="page"]').innerText(), "Account");
      assert.ok(await s.store.users.byEmail(email), "the account stays");

      await page.getByLabel("Current password").fill("not my password at all");
      await page.getByLabel("New password", { exact: true }).fill("another horse battery staple");
      await page.getByRole("button", { name: "Change password" }).click();
      await page.locator("#password-heading ~ [role=alert]").waitFor();
      assert.equal(await focusedBy(page, "id", "current_password"), "current_password");
      assert.equal(await page.locator('.dash-nav a[aria-current="page"]').innerText(), "Account");
      // The next try, from the page the error was shown on, comes back to the dashboard.
      await page.getByLabel("Current password").fill("correct horse battery staple");
      await page.getByLabel("New password", { exact: true }).fill("another horse battery staple");
      await page.getByRole("button", { name: "Change password" }).click();
      await page.waitForURL(`${s.url}/dashboard/account?done=password`);
      assert.equal(await page.locator('.dash-nav a[aria-current="page"]').innerText(), "Account");
      assert.deepEqual(errors.filter((e) => !/status of (401|422)/.test(e)), []);
    });
  } finally {
    await context.close();
    await browser.close();
    await s.close();
  }
});
