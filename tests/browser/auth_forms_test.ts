/**
 * Sign-up and sign-in refused, with the keyboard only: the email typed stays, and the cursor
 * is in the field to type again (the one the error is about), so Enter after retyping resubmits.
 */
import assert from "node:assert/strict";
import { ensureBuilt, focusedBy, launch, serve } from "./harness.ts";

Deno.test("a refused sign-up or sign-in puts the cursor in the field to type again", async (t) => {
  await ensureBuilt();
  const s = await serve();
  const browser = await launch();
  const page = await browser.newPage();
  page.setDefaultTimeout(30_000); // a bound on waiting for conditions: a loaded machine hashes a sign-up in seconds
  const email = `kb-${crypto.randomUUID().slice(0, 8)}@example.com`;
  try {
    await t.step("a refused password: the email stays, the cursor is in the password", async () => {
      await page.goto(`${s.url}/signup`);
      assert.equal(await focusedBy(page, "id", "email"), "email");
      await page.keyboard.type(email);
      await page.keyboard.press("Tab");
      await page.keyboard.type("password1");
      await page.keyboard.press("Enter");
      await page.getByRole("alert").waitFor();
      assert.equal(await page.getByLabel("Email").inputValue(), email);
      assert.equal(await focusedBy(page, "id", "password"), "password");
      await page.keyboard.type("correct horse battery staple");
      await page.keyboard.press("Enter");
      await page.waitForURL(`${s.url}/signup/check`);
      await page.getByRole("link", { name: "Go to the dashboard" }).click();
      await page.waitForURL(`${s.url}/dashboard`);
      await page.getByRole("button", { name: "Sign out" }).click();
      await page.waitForURL(/\/login/);
    });

    await t.step("a refused email: the cursor is in the email", async () => {
      await page.goto(`${s.url}/signup`);
      await page.evaluate(() => document.querySelector("form")!.noValidate = true);
      await page.keyboard.type("Bob <bob@example.com>");
      await page.keyboard.press("Tab");
      await page.keyboard.type("correct horse battery staple");
      await page.keyboard.press("Enter");
      await page.getByRole("alert").waitFor();
      assert.equal(await focusedBy(page, "id", "email"), "email");
    });

    await t.step("a wrong password at sign-in: the cursor is in the password", async () => {
      await page.goto(`${s.url}/login`);
      assert.equal(await focusedBy(page, "id", "email"), "email");
      await page.keyboard.type(email);
      await page.keyboard.press("Tab");
      await page.keyboard.type("not the password at all");
      await page.keyboard.press("Enter");
      await page.getByRole("alert").waitFor();
      assert.equal(await focusedBy(page, "id", "password"), "password");
      await page.keyboard.type("correct horse battery staple");
      await page.keyboard.press("Enter");
      await page.waitForURL(`${s.url}/dashboard`);
    });
  } finally {
    await browser.close();
    await s.close();
  }
});
