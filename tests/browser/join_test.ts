/**
 * A self-hoster's first hour in headless Chromium: from `/` by the header's "Sign up" to the
 * "check your email" page, the dashboard, a key and a first timer (the first account is the
 * administrator's, so it may); a reload or the back button after every POST makes and shows
 * nothing again. A later sign-up on free meets the plan's own page. Screenshots at 1280×800 and
 * 390×844 go to tests/artifacts/.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { axeViolations, ensureBuilt, launch, serve, shot } from "./harness.ts";

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

async function both(page: Page, name: string) {
  for (const [size, viewport] of [["desktop", DESKTOP], ["phone", PHONE]] as const) {
    await page.setViewportSize(viewport);
    const wide = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
    assert.ok(wide <= 1, `${name} at ${size}: scrolls sideways by ${wide}px`);
    await shot(page, `join-${name}-${size}`, { fullPage: true });
  }
  await page.setViewportSize(DESKTOP);
  assert.deepEqual(await axeViolations(page), [], name);
}

Deno.test("from the home page to a key and a first timer; reloads after each POST change nothing", async (t) => {
  await ensureBuilt();
  const s = await serve();
  // A fresh self-hosted instance: SIGNUP_PLAN unset.
  (s.config as { signupPlan: string | undefined }).signupPlan = undefined;
  const browser = await launch();
  const context = await browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  page.setDefaultTimeout(5000);
  const keysOf = async () => {
    const u = await s.store.users.byEmail("admin@example.com");
    return u ? await s.store.accounts.listKeys(u.account_id) : [];
  };
  try {
    await t.step("every public page has the header, on a desktop and a phone", async () => {
      for (
        const [path, name] of [["/events", "events"], ["/docs/guides/holidays", "guide"], ["/no-such-page", "404"]]
      ) {
        await page.goto(`${s.url}${path}`);
        const header = page.locator(".site-header");
        for (const link of ["Docs", "Holidays", "Sign in", "Sign up"]) {
          assert.ok(await header.getByRole("link", { name: link, exact: true }).isVisible(), `${path}: ${link}`);
        }
        await both(page, `header-${name}`);
      }
    });

    await t.step(
      "the header leads from / to sign-up, which says the first account is the administrator's",
      async () => {
        await page.goto(`${s.url}/`);
        await both(page, "header-home");
        await page.locator(".site-header").getByRole("link", { name: "Sign up" }).click();
        await page.waitForURL(`${s.url}/signup`);
        assert.match(await page.locator(".notice").innerText(), /the first one is its administrator's/);
        await page.getByLabel("Email").fill("admin@example.com");
        await page.getByLabel("Password").fill("correct horse battery staple");
        await page.getByRole("button", { name: "Sign up", exact: true }).click();
        await page.waitForURL(`${s.url}/signup/check`);
        const text = await page.locator("main").innerText();
        assert.match(text, /Check your email/);
        assert.match(text, /the link is in the server's log/);
        await both(page, "check-email");
        await page.getByRole("button", { name: "Send the link again" }).click();
        await page.waitForURL(`${s.url}/signup/check?sent=1`);
        assert.match(await page.locator("main").innerText(), /A new link is on its way/);
      },
    );

    await t.step("the overview says it is the administrator's account and how to call the API", async () => {
      await page.getByRole("link", { name: "Go to the dashboard" }).click();
      await page.waitForURL(`${s.url}/dashboard`);
      const text = await page.locator("main").innerText();
      assert.match(text, /enterprise/);
      assert.match(text, /You created the first account on this service/);
      assert.match(text, new RegExp(`curl -s -X POST ${s.url}/api/v1/timers`));
      await both(page, "overview-administrator");
    });

    await t.step(
      "a new key shows once: a reload or going back and forth shows it no more and makes no other",
      async () => {
        await page.getByRole("link", { name: "API keys" }).click();
        await page.getByLabel("Name").fill("laptop");
        await page.getByRole("button", { name: "Create key" }).click();
        const key = await page.locator("#new-key").inputValue();
        assert.match(key, /^tsk_/);
        await page.reload();
        assert.equal(await page.locator("#new-key").count(), 0, "a reload shows no key");
        await page.goBack();
        await page.goForward();
        assert.equal(await page.locator("#new-key").count(), 0, "nor back and forward");
        assert.equal((await keysOf()).length, 1, "one key was made");
        // The overview's examples now name it.
        await page.goto(`${s.url}/dashboard`);
        assert.ok((await page.locator("main").innerText()).includes(`Bearer ${key.slice(0, 12)}…`));
        // And it works.
        const r = await fetch(`${s.url}/api/v1/timers`, { headers: { authorization: `Bearer ${key}` } });
        assert.equal(r.status, 200);
        await r.body?.cancel();
      },
    );

    await t.step("a first timer from the form: its control link once, a reload makes no second timer", async () => {
      await page.goto(`${s.url}/dashboard/timers`);
      await page.locator("#new").getByLabel("Title").fill("First");
      await page.getByLabel("Duration in seconds").fill("300");
      await page.getByRole("button", { name: "Create timer" }).click();
      await page.waitForURL(/\/dashboard\/timers\/tmr_\w+$/);
      assert.match(await page.locator("#control-url").inputValue(), /\/c\/tmr_\w+#tct_\w+$/);
      await page.reload();
      assert.equal(await page.locator("#control-url").count(), 0);
      await page.goBack();
      await page.goForward();
      assert.equal(await page.locator("#control-url").count(), 0);
      const account = (await s.store.users.byEmail("admin@example.com"))!.account_id;
      assert.equal((await s.store.listTimers(account, { limit: 10, now: Date.now() })).timers.length, 1);
    });

    await t.step("rotating the signing secret: shown once, a reload rotates nothing", async () => {
      await page.goto(`${s.url}/dashboard/webhooks`);
      await page.getByRole("button", { name: "Reveal secret" }).click();
      assert.match(await page.content(), /whsec_/);
      await page.reload();
      assert.doesNotMatch(await page.content(), /whsec_/);
      const account = (await s.store.users.byEmail("admin@example.com"))!.account_id;
      const before = (await s.store.accounts.get(account))!.webhook_secrets.length;
      await page.getByRole("button", { name: "Rotate secret" }).click();
      assert.match(await page.locator("main").innerText(), /Your new signing secret/);
      await page.reload();
      await page.reload();
      assert.equal((await s.store.accounts.get(account))!.webhook_secrets.length, before + 1, "rotated once");
    });

    await t.step("a later sign-up is on free; a timer form answers with the plan's page", async () => {
      const other = await browser.newContext({ viewport: DESKTOP });
      const p = await other.newPage();
      p.setDefaultTimeout(5000);
      await p.goto(`${s.url}/signup`);
      assert.equal(await p.locator(".notice").count(), 0);
      await p.getByLabel("Email").fill("later@example.com");
      await p.getByLabel("Password").fill("correct horse battery staple");
      await p.getByRole("button", { name: "Sign up", exact: true }).click();
      await p.waitForURL(`${s.url}/signup/check`);
      await p.goto(`${s.url}/dashboard/timers`);
      // No form to fill in vain: the plan's note takes its place.
      assert.equal(await p.getByLabel("Duration in seconds").count(), 0);
      assert.match(await p.locator("#new").innerText(), /What the free plan includes: Timers: not included/);
      // A form sent anyway (an old tab, a script) answers with the plan's page, not the CSRF page.
      await p.evaluate(() => {
        const csrf = document.querySelector<HTMLInputElement>('input[name="_csrf"]')!.value;
        const form = Object.assign(document.createElement("form"), { method: "post", action: "/dashboard/timers" });
        for (const [name, value] of [["_csrf", csrf], ["type", "countdown"], ["duration", "300"]]) {
          form.append(Object.assign(document.createElement("input"), { type: "hidden", name, value }));
        }
        document.body.append(form);
        form.submit();
      });
      await p.waitForSelector("h1:has-text('Not included in your plan')");
      assert.equal(await p.locator("h1").innerText(), "Not included in your plan");
      assert.match(await p.locator("main").innerText(), /set by the administrator of this service/);
      await both(p, "plan-refusal");
      await other.close();
    });
  } finally {
    await browser.close();
    await s.close();
  }
});

Deno.test("the dashboard shows dates in the reader's zone (UTC on hover) and picks a language from one menu", async () => {
  await ensureBuilt();
  const s = await serve();
  (s.config as { signupPlan: string | undefined }).signupPlan = "pro";
  const browser = await launch();
  const context = await browser.newContext({ viewport: DESKTOP, timezoneId: "Asia/Tokyo" });
  const page = await context.newPage();
  page.setDefaultTimeout(5000);
  try {
    await page.goto(`${s.url}/signup`);
    await page.getByLabel("Email").fill("tokyo@example.com");
    await page.getByLabel("Password").fill("correct horse battery staple");
    await page.getByRole("button", { name: "Sign up", exact: true }).click();
    await page.waitForURL(`${s.url}/signup/check`);
    await page.goto(`${s.url}/dashboard/keys`);
    await page.getByLabel("Name").fill("laptop");
    await page.getByRole("button", { name: "Create key" }).click();
    const created = page.locator("tr[data-key] time").first();
    await page.waitForFunction(() => /GMT\+9/.test(document.querySelector("tr[data-key] time")?.textContent ?? ""));
    assert.match(await created.innerText(), /GMT\+9/, "the reader's zone");
    assert.match((await created.getAttribute("title"))!, /UTC$/, "UTC on hover");
    assert.deepEqual(await axeViolations(page), []);

    await page.locator(".dash-lang summary").click();
    await page.getByRole("link", { name: "Deutsch" }).click();
    await page.waitForURL(`${s.url}/dashboard/keys`);
    assert.equal(await page.locator("h1").innerText(), "API-Schlüssel");
    await page.waitForFunction(() => /GMT\+9/.test(document.querySelector("tr[data-key] time")?.textContent ?? ""));
    assert.deepEqual(await axeViolations(page), []);
    await both(page, "keys-local-time");
  } finally {
    await browser.close();
    await s.close();
  }
});
