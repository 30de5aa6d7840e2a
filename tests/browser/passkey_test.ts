/**
 * Passkeys in headless Chromium with a CDP virtual authenticator (CTAP2, internal, resident keys,
 * user verification): a password-less sign-up, a sign-in with that passkey, and a passkey added
 * to a password account that then signs in with it. The RP ID is SITE_URL's host: localhost.
 */
import assert from "node:assert/strict";
import type { Browser, Page } from "playwright-core";
import { FRESH_MS } from "../../lib/accounts/sessions.ts";
import { axeViolations, ensureBuilt, hydrated, launch, serve, type Served, watchErrors } from "./harness.ts";

/** A fresh context with its own virtual authenticator. */
async function withAuthenticator(browser: Browser) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = watchErrors(page);
  const cdp = await context.newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  const credentials = async () =>
    (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials as { rpId: string }[];
  return { context, page, errors, credentials };
}

async function open(page: Page, url: string) {
  await page.goto(url);
  await hydrated(page);
}

/** Waits for the browser to land on `path` after a passkey ceremony. */
async function landed(page: Page, path: string) {
  await page.waitForURL((u) => u.pathname === path, { timeout: 10_000 });
}

async function account(s: Served, email: string) {
  const user = await s.store.users.byEmail(email);
  assert.ok(user, `${email} has an account`);
  return { user, passkeys: await s.store.users.listPasskeys(user.id) };
}

Deno.test("passkeys in Chromium: sign up without a password, sign in, add one to a password account", async (t) => {
  await ensureBuilt();
  const s = await serve();
  // WebAuthn needs a domain as its RP ID: the browser reaches the server as localhost.
  const site = s.url.replace("127.0.0.1", "localhost");
  s.config.siteUrl = site;
  const browser = await launch();
  try {
    await t.step("sign up with a passkey, no password", async () => {
      const a = await withAuthenticator(browser);
      await open(a.page, `${site}/signup`);
      assert.deepEqual(await axeViolations(a.page), []);
      await a.page.getByLabel("Email").fill("pat@example.com");
      await a.page.getByRole("button", { name: "Sign up with a passkey" }).click();
      await landed(a.page, "/signup/check");
      const { user, passkeys } = await account(s, "pat@example.com");
      assert.equal(user.password_hash, null, "password-less");
      assert.equal(passkeys.length, 1);
      const creds = await a.credentials();
      assert.equal(creds.length, 1);
      assert.equal(creds[0].rpId, "localhost");

      // Signed out (cookies gone), the same authenticator signs in.
      await a.context.clearCookies();
      await open(a.page, `${site}/reset`);
      assert.deepEqual(await axeViolations(a.page), []);
      await open(a.page, `${site}/login`);
      assert.deepEqual(await axeViolations(a.page), []);
      await a.page.emulateMedia({ colorScheme: "dark" });
      assert.deepEqual(await axeViolations(a.page), [], "dark too");
      await a.page.emulateMedia({ colorScheme: "light" });
      await a.page.getByRole("button", { name: "Sign in with a passkey" }).click();
      await landed(a.page, "/dashboard");
      await open(a.page, `${site}/account`);
      assert.match(await a.page.locator("main").innerText(), /Passkeys/);
      assert.equal((await account(s, "pat@example.com")).passkeys[0].last_used_at !== null, true);
      assert.deepEqual(a.errors, []);
      await a.context.close();
    });

    await t.step("a password account adds a passkey and signs in with it", async () => {
      const a = await withAuthenticator(browser);
      await open(a.page, `${site}/signup`);
      await a.page.getByLabel("Email").fill("quinn@example.com");
      await a.page.getByLabel("Password").fill("correct horse battery");
      await a.page.getByRole("button", { name: "Sign up", exact: true }).click();
      await landed(a.page, "/signup/check");
      await open(a.page, `${site}/account`);
      await a.page.getByLabel("Passkey name").fill("Laptop");
      await a.page.getByRole("button", { name: "Add a passkey" }).click();
      await landed(a.page, "/account");
      await a.page.waitForSelector("text=Laptop");
      assert.deepEqual(await axeViolations(a.page), []);
      assert.equal((await account(s, "quinn@example.com")).passkeys[0].name, "Laptop");

      await a.context.clearCookies();
      await open(a.page, `${site}/login`);
      await a.page.getByRole("button", { name: "Sign in with a passkey" }).click();
      await landed(a.page, "/dashboard");
      await open(a.page, `${site}/account`);
      assert.match(await a.page.locator("main").innerText(), /Laptop/);
      assert.deepEqual(a.errors, []);
      await a.context.close();
    });

    await t.step("a sign-in too old to add a passkey says so with a link to sign in again", async () => {
      const a = await withAuthenticator(browser);
      await open(a.page, `${site}/signup`);
      await a.page.getByLabel("Email").fill("rene@example.com");
      await a.page.getByLabel("Password").fill("correct horse battery");
      await a.page.getByRole("button", { name: "Sign up", exact: true }).click();
      await landed(a.page, "/signup/check");
      // The session began before the recent-sign-in window.
      const { user } = await account(s, "rene@example.com");
      for (const { hash } of await s.store.users.sessionsOf(user.id)) {
        const session = (await s.store.users.getSession(hash))!;
        await s.store.users.putSession({ ...session, created_at: Date.now() - FRESH_MS - 60_000 }, 86400_000);
      }
      await open(a.page, `${site}/account`);
      await a.page.getByRole("button", { name: "Add a passkey" }).click();
      const link = a.page.locator("#passkey-error a");
      await link.waitFor({ timeout: 10_000 });
      assert.equal(await link.innerText(), "Sign in again");
      assert.equal(await a.credentials().then((c) => c.length), 0, "no credential made");
      await link.click();
      await landed(a.page, "/login");
      assert.equal(new URL(a.page.url()).searchParams.get("next"), "/account");
      await a.page.getByLabel("Password").fill("correct horse battery");
      await a.page.getByRole("button", { name: "Sign in", exact: true }).click();
      await landed(a.page, "/account");
      await a.page.getByLabel("Passkey name").fill("Phone");
      await a.page.getByRole("button", { name: "Add a passkey" }).click();
      await a.page.waitForSelector("text=Phone");
      assert.equal((await account(s, "rene@example.com")).passkeys.length, 1, "added once signed in again");
      await a.context.close();
    });

    await t.step("an unknown passkey is refused with a message", async () => {
      const a = await withAuthenticator(browser);
      await open(a.page, `${site}/login`);
      // This authenticator has no credential for the site: the browser reports it, the page says so.
      await a.page.getByRole("button", { name: "Sign in with a passkey" }).click();
      await a.page.waitForSelector("#passkey-error:not([hidden])", { timeout: 15_000 });
      assert.equal(new URL(a.page.url()).pathname, "/login");
      await a.context.close();
    });
  } finally {
    await browser.close();
    await s.close();
  }
});
