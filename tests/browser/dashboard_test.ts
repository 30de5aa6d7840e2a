/**
 * The dashboard end to end in headless Chromium: sign up, create a key, use it against the API,
 * see the timer appear live, send a signed test payload to a receiver on 127.0.0.1, redeliver a
 * failed delivery, edit the timer, reveal the webhook secret once and rotate it, revoke the key,
 * sign out. Every page is axe-clean, light and dark, at a phone's and a desktop's width.
 */
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import type { Browser, Page } from "playwright-core";
import { Webhook } from "standardwebhooks";
import { receiver } from "../helpers.ts";
import {
  axeViolations,
  ensureBuilt,
  focusedBy,
  hydrated,
  launch,
  serve,
  shot,
  ticksFrom,
  watchErrors,
} from "./harness.ts";

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
/** The narrow phones the dashboard must fit without sideways scrolling. */
const PHONES = [{ width: 360, height: 640 }, { width: 320, height: 568 }];

/**
 * What lies past the viewport's right edge: the page's own sideways scroll, and any visible
 * element of the main content outside the viewport (also one hidden inside a scroll box).
 */
function offScreen(page: Page) {
  return page.evaluate(() => {
    const out: string[] = [];
    const wide = document.documentElement.scrollWidth - innerWidth;
    if (wide > 1) out.push(`the page scrolls sideways by ${wide}px`);
    for (const el of document.querySelectorAll<HTMLElement>(".dash-main *")) {
      const r = el.getBoundingClientRect();
      if (r.width <= 1 || r.height <= 1) continue; // .sr-only and empty boxes
      if (r.left < -1 || r.right > innerWidth + 1) {
        out.push(`<${el.tagName.toLowerCase()} class="${el.className}"> ${Math.round(r.left)}…${Math.round(r.right)}`);
      }
    }
    return out.slice(0, 8);
  });
}

async function checkA11y(page: Page, where: string) {
  const v = await axeViolations(page);
  assert.deepEqual(v, [], `${where}: ${JSON.stringify(v, null, 1)}`);
}

/** The body of a recorded request without its trailing signature member: the signed content. */
const signedContent = (body: string) => body.replace(/,"signature":"sha256=[0-9a-f]{64}"}$/, "}");
const hmacHeader = (secret: string, body: string) =>
  `sha256=${createHmac("sha256", secret).update(signedContent(body)).digest("hex")}`;

Deno.test("the dashboard in a browser, from sign-up to sign-out", async (t) => {
  await ensureBuilt();
  const s = await serve();
  // A paid plan for new accounts, so the key reaches the timers API.
  (s.config as { signupPlan: string }).signupPlan = "pro";
  // The first test payload fails (500); everything else succeeds.
  let failedOnce = false;
  const hook = receiver((n) => {
    const fail = !failedOnce && hook.received[n - 1].json.event === "webhook.test";
    if (fail) failedOnce = true;
    return new Response(fail ? "down" : "ok", { status: fail ? 500 : 200 });
  });
  /** The k-th test payload the receiver recorded (1-based), once it has arrived. */
  async function testPayload(k: number) {
    const tests = () => hook.received.filter((r) => r.json.event === "webhook.test");
    for (let n = hook.received.length + 1; tests().length < k; n = hook.received.length + 1) await hook.waitFor(n);
    return tests()[k - 1];
  }
  const browser: Browser = await launch();
  const context = await browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  page.setDefaultTimeout(30_000); // a bound on waiting for conditions: a loaded machine hashes a sign-up in seconds
  const errors = watchErrors(page);
  const email = `dev-${crypto.randomUUID().slice(0, 8)}@example.com`;
  let secretKey = "";
  let timerId = "";
  let accountId = "";
  try {
    await t.step("sign up asks to check the email, then the dashboard overview", async () => {
      await page.goto(`${s.url}/signup`);
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password").fill("correct horse battery staple");
      await page.getByRole("button", { name: "Sign up", exact: true }).click();
      await page.waitForURL(`${s.url}/signup/check`);
      assert.match(await page.locator("h1").innerText(), /Check your email/);
      await page.getByRole("link", { name: "Go to the dashboard" }).click();
      await page.waitForURL(`${s.url}/dashboard`);
      assert.match(await page.locator("h1").innerText(), /Overview/);
      assert.match(await page.locator(".dash-user").innerText(), new RegExp(email));
      assert.match(await page.locator(".plan-line").innerText(), /pro/);
      const user = await s.store.users.byEmail(email);
      accountId = user!.account_id;
      await checkA11y(page, "overview");
    });

    await t.step("a key created in the dashboard is shown once and works against the API", async () => {
      await page.getByRole("link", { name: "API keys" }).click();
      await page.getByLabel("Name").fill("e2e laptop");
      await page.getByRole("button", { name: "Create key" }).click();
      secretKey = await page.locator("#new-key").inputValue();
      assert.match(secretKey, /^tsk_[A-Za-z0-9]{22,}$/);
      await hydrated(page);
      await page.getByRole("button", { name: "Copy" }).click();
      await page.waitForSelector("#new-key-status:has-text('Copied'), #new-key-status:has-text('Ctrl+C')");
      await checkA11y(page, "keys with a new key");
      await shot(page, "dashboard-keys-new-desktop-light", { fullPage: true });
      await page.goto(`${s.url}/dashboard/keys`);
      assert.equal(await page.locator("#new-key").count(), 0, "shown once");
      assert.match(await page.locator("tr[data-key]").first().innerText(), /e2e laptop\s+tsk_/);
    });

    await t.step("a timer created with the key appears live in the dashboard and follows its state", async () => {
      await page.goto(`${s.url}/dashboard/timers`);
      await hydrated(page);
      await page.waitForSelector('.timers[data-live="live"]');
      const t0 = performance.now();
      const res = await fetch(`${s.url}/api/v1/timers`, {
        method: "POST",
        headers: { authorization: `Bearer ${secretKey}`, "content-type": "application/json" },
        body: JSON.stringify({ type: "countdown", duration: 600, title: "Launch", webhook_url: hook.url }),
      });
      assert.equal(res.status, 201);
      timerId = (await res.json()).timer_id;
      const row = page.locator(`tr[data-timer="${timerId}"]`);
      await row.waitFor({ timeout: 10_000 });
      // How soon is written down, not judged: a loaded machine is no measure of it.
      const appeared = performance.now() - t0;
      await Deno.writeTextFile(
        new URL("../artifacts/dashboard-live-ms.txt", import.meta.url),
        `${Math.round(appeared)}\n`,
      );
      assert.equal(await row.getAttribute("data-state"), "idle");
      const started = await fetch(`${s.url}/api/v1/timers/${timerId}/state`, {
        method: "PATCH",
        headers: { authorization: `Bearer ${secretKey}`, "content-type": "application/json" },
        body: JSON.stringify({ action: "start" }),
      });
      assert.equal(started.status, 200);
      await started.body?.cancel();
      await page.waitForSelector(`tr[data-timer="${timerId}"][data-state="running"]`, { timeout: 10_000 });
      const first = await row.locator(".clock").innerText();
      await ticksFrom(page, `tr[data-timer="${timerId}"] .clock`, first);
      // Pause from the dashboard's own form (POST + redirect).
      await row.getByRole("button", { name: "Pause" }).click();
      await page.waitForSelector(`tr[data-timer="${timerId}"][data-state="paused"]`);
      assert.match(await page.locator(".flash--ok").innerText(), /Pause: done/);
      await checkA11y(page, "timers");
    });

    await t.step("a live feed refused by a full server (503) connects again by itself", async () => {
      let refused = 0;
      await page.route("**/dashboard/live*", async (route) => {
        if (refused++ === 0) {
          await route.fulfill({ status: 503, headers: { "retry-after": "5" }, body: "" });
        } else await route.continue();
      });
      await page.goto(`${s.url}/dashboard/timers`);
      await hydrated(page);
      await page.waitForSelector('.timers[data-live="off"]', { timeout: 20_000 });
      await page.waitForSelector('.timers[data-live="live"]', { timeout: 10_000 });
      assert.ok(refused >= 2, "asked again after the refusal");
      await page.unroute("**/dashboard/live*");
      // The browser logs the refused request; that one is expected.
      const logged = errors.findIndex((e) => /status of 503/.test(e));
      assert.ok(logged >= 0);
      errors.splice(logged, 1);
    });

    await t.step("a live feed told the session ended stops asking", async () => {
      let asked = 0;
      await page.route("**/dashboard/live*", async (route) => {
        asked++;
        await route.fulfill({
          status: 200,
          headers: { "content-type": "text/event-stream" },
          body: "retry: 86400000\nevent: signed-out\ndata: {}\n\n",
        });
      });
      await page.goto(`${s.url}/dashboard/timers`);
      await hydrated(page);
      await page.waitForSelector('.timers[data-live="off"]', { timeout: 20_000 });
      await page.waitForTimeout(3500); // past the first retry a refused feed would make (1–3 s)
      assert.equal(asked, 1);
      await page.unroute("**/dashboard/live*");
    });

    await t.step("a timer created from the form shows only its type's fields and its control link once", async () => {
      await page.locator("#new select[name=type]").selectOption("interval");
      assert.equal(await page.getByLabel("Duration in seconds").isVisible(), false, "countdown fields hide");
      await page.locator("#new").getByLabel("Title").fill("Drills");
      await page.getByLabel("Work seconds").fill("30");
      await page.getByLabel("Rest seconds").fill("10");
      await page.getByLabel("Rounds (empty for unlimited)").fill("4");
      await page.getByRole("button", { name: "Create timer" }).click();
      assert.match(await page.locator(".flash--ok").innerText(), /Timer “Drills” created/);
      const control = await page.locator("#control-url").inputValue();
      assert.match(control, /\/c\/tmr_\w+#tct_\w+$/);
      await checkA11y(page, "detail right after creation");
      const controlPage = await context.newPage();
      await controlPage.goto(control);
      await controlPage.waitForSelector(".control-status--ok");
      await controlPage.close();
      await page.goto(`${s.url}/dashboard/timers`);
    });

    await t.step("a test payload reaches the receiver signed; the failed one is redelivered", async () => {
      await page.getByRole("link", { name: "Launch" }).click();
      await page.waitForURL(`${s.url}/dashboard/timers/${timerId}`);
      await page.getByRole("button", { name: "Send test payload" }).click();
      const first = await testPayload(1);
      const account = (await s.store.accounts.get(accountId))!;
      assert.equal(first.json.event, "webhook.test");
      assert.equal(first.headers.get("x-service-signature"), hmacHeader(account.webhook_secrets[0].secret, first.body));
      new Webhook(account.webhook_secrets[0].secret).verify(first.body, Object.fromEntries(first.headers));
      assert.match(await page.locator(".flash--error").innerText(), /not delivered.*500|HTTP 500/);
      const failed = page.locator('.delivery[data-state="failed"]');
      assert.equal(await failed.count(), 1);
      assert.match(await failed.locator(".attempts").innerText(), /500/);
      await checkA11y(page, "timer detail with a failed delivery");
      await failed.getByRole("button", { name: /Redeliver/ }).click();
      await page.waitForSelector(".flash--ok:has-text('Delivery queued again')");
      const again = await testPayload(2);
      assert.equal(again.json.id, first.json.id, "a redelivery keeps the event id");
      assert.equal(again.headers.get("x-service-signature"), hmacHeader(account.webhook_secrets[0].secret, again.body));
      // The log shows the second attempt once it is recorded.
      for (let i = 0; i < 40; i++) {
        await page.reload();
        if (await page.locator(`.delivery[data-delivery="${first.json.id}"][data-state="succeeded"]`).count()) break;
        await page.waitForTimeout(100);
      }
      const done = page.locator(`.delivery[data-delivery="${first.json.id}"]`);
      assert.equal(await done.getAttribute("data-state"), "succeeded");
      assert.equal(await done.locator("tr[data-attempt]").count(), 2, "both attempts are listed");
    });

    await t.step("the timer is edited on its page: a refused colour keeps what was typed, then it saves", async () => {
      await page.goto(`${s.url}/dashboard/timers/${timerId}`);
      const edit = page.locator("#edit");
      const webhook = (await s.store.getTimer(timerId))!.timer.webhook_url;
      assert.equal(await edit.getByLabel("Title").inputValue(), "Launch", "the form starts from the timer");
      await edit.getByLabel("Title").fill("Launch v2");
      await edit.getByLabel("Theme").selectOption("dark");
      await edit.getByLabel("Colour (6 hex digits)").fill("#12345");
      await page.setViewportSize(PHONES[0]);
      await edit.getByRole("button", { name: "Save changes" }).click();
      await page.waitForSelector("#edit-color-error");
      assert.match(await page.locator("#edit-color-error").innerText(), /color must be/);
      assert.equal(await focusedBy(page, "id", "edit-color"), "edit-color", "the cursor is in the field");
      assert.equal(await edit.getByLabel("Title").inputValue(), "Launch v2", "what was typed is kept");
      assert.equal(await edit.getByLabel("Theme").inputValue(), "dark");
      // The refusal is a 422 page, which Chrome logs: expected here, and only here.
      const logged = errors.findIndex((e) => /status of 422/.test(e));
      assert.ok(logged >= 0, "the refused form answered 422");
      errors.splice(logged, 1);
      assert.deepEqual(await offScreen(page), [], "the refused form at 360 px");
      await checkA11y(page, "timer edit refused at 360 px");
      await shot(page, "dashboard-detail-edit-refused-phone360-light", { fullPage: true });
      await page.setViewportSize(DESKTOP);
      await edit.getByLabel("Colour (6 hex digits)").fill("0A7F5A");
      await edit.getByRole("button", { name: "Save changes" }).click();
      await page.waitForSelector(".flash--ok:has-text('Changes saved.')");
      assert.equal(await page.locator("h1").innerText(), "Launch v2");
      const stored = (await s.store.getTimer(timerId))!.timer;
      assert.deepEqual([stored.title, stored.theme, stored.color, stored.webhook_url], [
        "Launch v2",
        "dark",
        "0A7F5A",
        webhook,
      ]);
      // Deleting asks first: the browser will not send the form until the box is ticked.
      await page.getByRole("button", { name: "Delete timer" }).click();
      assert.equal(
        await page.locator("#delete-confirm").evaluate((el) => (el as HTMLInputElement).validity.valueMissing),
        true,
      );
      assert.ok(await s.store.getTimer(timerId), "not deleted");
      await checkA11y(page, "timer detail after an edit");
    });

    await t.step("the sign-up's secret is revealed once", async () => {
      await page.getByRole("link", { name: "Webhooks" }).click();
      await page.getByRole("button", { name: "Reveal secret" }).click();
      const revealed = await page.locator("#new-secret").inputValue();
      assert.equal(revealed, (await s.store.accounts.get(accountId))!.webhook_secrets[0].secret);
      await checkA11y(page, "webhooks with the revealed secret");
      await page.goto(`${s.url}/dashboard/webhooks`);
      assert.equal(await page.locator("#new-secret").count(), 0, "revealed once");
      assert.equal(await page.getByRole("button", { name: "Reveal secret" }).count(), 0);
    });

    await t.step("rotating shows the new secret once and test payloads carry its signature", async () => {
      await page.getByRole("button", { name: "Rotate secret" }).click();
      const shown = await page.locator("#new-secret").inputValue();
      assert.match(shown, /^whsec_/);
      const account = (await s.store.accounts.get(accountId))!;
      assert.equal(account.webhook_secrets[0].secret, shown);
      await checkA11y(page, "webhooks after rotation");
      await shot(page, "dashboard-webhooks-rotated-desktop-light", { fullPage: true });
      // Senders read an account's secrets at most a second old.
      await page.waitForTimeout(1100);
      await page.goto(`${s.url}/dashboard/timers/${timerId}`);
      await page.getByRole("button", { name: "Send test payload" }).click();
      const got = await testPayload(3);
      // Standard Webhooks signs with every secret in force: the new one verifies.
      new Webhook(shown).verify(got.body, Object.fromEntries(got.headers));
      assert.match(await page.locator(".flash--ok").innerText(), /delivered \(HTTP 200\)/);
      await page.goto(`${s.url}/dashboard/webhooks`);
      assert.equal(await page.locator("#new-secret").count(), 0, "shown once");
      await page.getByRole("button", { name: "Retire the previous secret now" }).click();
      assert.match(await page.locator(".flash--ok").innerText(), /no longer signs/);
    });

    await t.step("screenshots: phone and desktop, light and dark", async () => {
      for (const scheme of ["light", "dark"] as const) {
        for (const [name, viewport] of [["phone", PHONE], ["desktop", DESKTOP]] as const) {
          await page.emulateMedia({ colorScheme: scheme });
          await page.setViewportSize(viewport);
          await page.goto(`${s.url}/dashboard/timers`);
          await hydrated(page);
          await page.waitForSelector('.timers[data-live="live"]');
          const wide = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
          assert.ok(wide <= 1, `${scheme} ${name}: the page scrolls sideways by ${wide}px`);
          await checkA11y(page, `timers ${scheme} ${name}`);
          await shot(page, `dashboard-timers-${name}-${scheme}`, { fullPage: true });
          await page.goto(`${s.url}/dashboard/timers/${timerId}`);
          await checkA11y(page, `detail ${scheme} ${name}`);
          await shot(page, `dashboard-detail-${name}-${scheme}`, { fullPage: true });
        }
      }
      await page.emulateMedia({ colorScheme: "light" });
      await page.setViewportSize(DESKTOP);
      await page.goto(`${s.url}/dashboard`);
      await shot(page, "dashboard-overview-desktop-light", { fullPage: true });
    });

    await t.step(
      "every page fits a 360 and a 320 px phone: tables become cards, nothing scrolls sideways",
      async () => {
        const pages = [
          "/dashboard",
          "/dashboard/keys",
          "/dashboard/webhooks",
          "/dashboard/timers",
          `/dashboard/timers/${timerId}`,
          "/dashboard/account",
        ];
        for (const viewport of PHONES) {
          await page.setViewportSize(viewport);
          for (const path of pages) {
            await page.goto(`${s.url}${path}`);
            await hydrated(page);
            const where = `${path} at ${viewport.width}x${viewport.height}`;
            assert.deepEqual(await offScreen(page), [], where);
            await checkA11y(page, where);
          }
          // The keys table: each key is a card whose dates and Revoke button are in view.
          await page.goto(`${s.url}/dashboard/keys`);
          const key = page.locator("tr[data-key]").first();
          const text = await key.innerText();
          assert.match(text, /e2e laptop[\s\S]*Key starts with\s+tsk_[\s\S]*Created[\s\S]*Last used/);
          assert.ok(await key.getByRole("button", { name: "Revoke key e2e laptop" }).isVisible());
          await shot(page, `dashboard-keys-phone${viewport.width}-light`, { fullPage: true });
          await page.goto(`${s.url}/dashboard`);
          assert.match(await page.locator(".usage tbody tr").first().innerText(), /Used now\s+\d+\s+Limit/);
          await shot(page, `dashboard-overview-phone${viewport.width}-light`, { fullPage: true });
        }
        await page.setViewportSize(DESKTOP);
        // On a desktop the tables stay tables: the column names are in the header row only.
        await page.goto(`${s.url}/dashboard/keys`);
        assert.equal(await page.locator("tr[data-key] .cell-label").first().isVisible(), false);
        assert.equal(await page.locator(".keys thead").isVisible(), true);
      },
    );

    await t.step("the account page places sign-in's sections in the dashboard", async () => {
      await page.getByRole("link", { name: "Account" }).click();
      await page.waitForURL(`${s.url}/dashboard/account`);
      assert.equal(await page.locator('.dash-nav a[aria-current="page"]').innerText(), "Account");
      await checkA11y(page, "account");
      await shot(page, "dashboard-account-desktop-light", { fullPage: true });
    });

    await t.step("a revoked key is refused by the API", async () => {
      await page.goto(`${s.url}/dashboard/keys`);
      await page.getByRole("button", { name: "Revoke key e2e laptop" }).click();
      assert.match(await page.locator(".flash--ok").innerText(), /revoked/);
      const res = await fetch(`${s.url}/api/v1/timers`, { headers: { authorization: `Bearer ${secretKey}` } });
      assert.equal(res.status, 401);
      await res.body?.cancel();
    });

    await t.step("signing out ends the session", async () => {
      await page.getByRole("button", { name: "Sign out" }).click();
      await page.waitForURL(/\/login/);
      await page.goto(`${s.url}/dashboard`);
      await page.waitForURL(/\/login/);
      assert.deepEqual(errors, []);
    });
  } finally {
    await context.close();
    await browser.close();
    await hook.close();
    await s.close();
  }
});
