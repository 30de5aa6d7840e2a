/** /events in headless Chromium: hydration in the browser's zone, ticking, region and zone switches, copy, a11y. */
import assert from "node:assert/strict";
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { EMBED, embedSnippet, fill, milestone, parseTargetDate, spokenDuration, widgetUrl } from "../../lib/display.ts";
import { axeViolations, ensureBuilt, launch, serve, type Served, shot, ticksFrom, watchErrors } from "./harness.ts";

/** Hydrated: the copy buttons, which only work with script, are there (a faked clock stalls `loaded`). */
async function hydrated(page: Page, js = true) {
  await page.waitForLoadState("load");
  if (js) await page.locator(".ev-actions button").first().waitFor();
}

/**
 * The day every step runs on, server and browser alike: which holidays are still ahead depends on
 * it (US Thanksgiving, expected below, had passed in Tokyo on 2026-11-27 and failed every run).
 * Noon in Tokyo, six days before US Thanksgiving, three before Japan's Labor Thanksgiving.
 */
const PINNED = Date.parse("2026-11-20T03:00:00Z");

/** Served at the pinned day (its clock running from there in real time). */
const served = () => serve({ startAt: PINNED });

async function open(browser: Browser, url: string, o: BrowserContextOptions = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...o });
  // The browser's clock starts where the server's is: both on the pinned day, both running.
  await context.clock.install({ time: server!.clock.now() });
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(url);
  await hydrated(page, o.javaScriptEnabled);
  return { page, context, errors, close: () => context.close() };
}

/** Seconds a countdown text stands for ("3 days 17:00:00", "5:00:00", "04:59"); 0 for "Today". */
function seconds(text: string): number {
  if (/Today/.test(text)) return 0;
  const [, days = "0", hms] = text.match(/^(?:(\d+)\D+\s)?([\d:]+)$/)!;
  return Number(days) * 86400 + hms.split(":").reduce((acc, n) => acc * 60 + Number(n), 0);
}

/** The first card that is not today: its date, name and shown seconds, with the page's clock at that moment. */
function nextCard(page: Page) {
  return page.evaluate(() => {
    const li = document.querySelector<HTMLElement>(".ev:not(.ev--today)")!;
    return {
      date: li.dataset.date!,
      name: li.querySelector(".ev-name")!.textContent!,
      clock: li.querySelector(".ev-clock")!.textContent!.replace(/\s+/g, " ").trim(),
      now: Date.now(),
    };
  });
}

const zoneOnPage = (page: Page) => page.locator(".ev-zone").innerText();

/**
 * The first card once what it shows agrees with the page's clock (±1 s) in `tz`: a loaded machine
 * paints a tick late, so one reading may show the second before; this waits for a painted one.
 */
async function agreeing(page: Page, tz: string) {
  let card = await nextCard(page);
  const expect = (c: typeof card) => Math.ceil((parseTargetDate(c.date, tz)! - c.now) / 1000);
  for (let n = 0; n < 50 && Math.abs(seconds(card.clock) - expect(card)) > 1; n++) {
    await page.waitForTimeout(200);
    card = await nextCard(page);
  }
  assert.ok(Math.abs(seconds(card.clock) - expect(card)) <= 1, JSON.stringify({ card, expected: expect(card) }));
  return card;
}

let server: Served | undefined;

Deno.test("the events page in a browser", async (t) => {
  await ensureBuilt();
  const s = server = await served();
  const browser = await launch();
  try {
    await t.step("it hydrates in the browser's zone and ticks from the clock, not by counting", async () => {
      const v = await open(browser, `${s.url}/events?region=US`, { timezoneId: "Asia/Tokyo" });
      await v.page.locator(".ev-zone", { hasText: "Asia/Tokyo" }).waitFor();
      assert.equal(await v.page.inputValue('input[name="tz"]'), "Asia/Tokyo");
      assert.ok(!v.page.url().includes("tz="), "the browser's own zone stays out of the address");
      const first = await agreeing(v.page, "Asia/Tokyo");
      await v.page.waitForTimeout(2100);
      const later = await agreeing(v.page, "Asia/Tokyo");
      const ticked = seconds(first.clock) - seconds(later.clock);
      const passed = (later.now - first.now) / 1000; // 2.1 s, or more on a loaded machine
      // Each reading is within a second of its clock: together within two.
      assert.ok(ticked >= 2 && Math.abs(ticked - passed) <= 2, `ticked ${ticked} s in ${passed} s`);
      assert.equal(await v.page.locator("[aria-live=polite]").innerText(), "", "nothing announced between milestones");
      assert.equal(await v.page.locator(".ev-actions button").count(), await v.page.locator(".ev").count());
      await shot(v.page, "events-us-tokyo", { fullPage: true });
      assert.deepEqual(v.errors, []);
      await v.close();
      // A browser in India is named as the API names it (its ICU says Asia/Calcutta).
      const india = await open(browser, `${s.url}/events?region=IN`, { timezoneId: "Asia/Kolkata" });
      await india.page.locator(".ev-zone", { hasText: "Asia/Kolkata" }).waitFor();
      assert.equal(await india.page.inputValue('input[name="tz"]'), "Asia/Kolkata");
      await india.close();
    });

    await t.step("a woken page is right at once, announces milestones politely and drops passed days", async () => {
      const v = await open(browser, `${s.url}/events?region=JP&tz=Asia/Tokyo`, {});
      const before = await nextCard(v.page);
      const left = seconds(before.clock);
      // The smallest jump that enters the next milestone (one day, hour or minute mark lower).
      let lo = 1, hi = left;
      while (lo < hi) {
        const mid = Math.floor((lo + hi) / 2);
        if (milestone(left - mid) !== milestone(left)) hi = mid;
        else lo = mid + 1;
      }
      await v.page.clock.fastForward(lo * 1000 + 300);
      const after = await nextCard(v.page);
      assert.equal(after.date, before.date);
      assert.ok(Math.abs(left - seconds(after.clock) - lo) <= 1, JSON.stringify({ before, after, lo }));
      const said = fill("{name} in {time}", { name: before.name, time: spokenDuration(milestone(left - lo), "en") });
      await v.page.locator("[aria-live=polite]", { hasText: said }).waitFor({ timeout: 10_000 });
      // Past the whole day of that event: it leaves the list, and the list stays full.
      await v.page.clock.setSystemTime(after.now + (seconds(after.clock) + 86400 + 2) * 1000);
      await v.page.waitForFunction((d) => !document.querySelector(`.ev[data-date="${d}"]`), before.date);
      // That was a new year: the page fetched the new year's list (all of its remaining events).
      await v.page.waitForFunction(() => document.querySelectorAll(".ev").length >= 5);
      assert.deepEqual(v.errors, []);
      await v.close();
    });

    await t.step("region and zone change in place, in the address too; a language loads the page in it", async () => {
      const v = await open(browser, `${s.url}/events?region=US&tz=America/New_York`);
      await v.page.evaluate(() => Object.assign(window, { samePage: true }));
      await v.page.selectOption('select[name="region"]', "JP");
      await v.page.getByRole("status").filter({ hasText: /^Japan: \d+ upcoming events$/ }).waitFor();
      assert.match(v.page.url(), /region=JP/);
      assert.equal(await v.page.title(), "Holiday countdowns · Japan");
      const names = await v.page.locator(".ev-name").allInnerTexts();
      assert.ok(
        names.some((n) => /Emperor|Coming of Age|National Foundation|Labor Thanksgiving/.test(n)),
        names.join(),
      );

      await v.page.fill('input[name="tz"]', "Europe/Paris");
      await v.page.press('input[name="tz"]', "Enter");
      await v.page.locator(".ev-zone", { hasText: "Europe/Paris" }).waitFor();
      assert.match(v.page.url(), /tz=Europe%2FParis/);
      await agreeing(v.page, "Europe/Paris");
      assert.match(await v.page.locator(".ev-actions a").first().getAttribute("href") ?? "", /timezone=Europe%2FParis/);

      await v.page.fill('input[name="tz"]', "Mars/Olympus");
      await v.page.press('input[name="tz"]', "Enter");
      await v.page.getByText("“Mars/Olympus” is not a time zone, so UTC is used.").waitFor();
      // Shown without a reload: announced to screen readers as it appears.
      assert.equal(
        await v.page.getByRole("alert").filter({ hasText: "is not a time zone" }).count(),
        1,
      );
      assert.equal(await zoneOnPage(v.page), "Counting to midnight in UTC.");
      assert.equal(await v.page.evaluate(() => "samePage" in window), true, "no reload so far");
      await shot(v.page, "events-jp-bad-zone");

      await v.page.fill('input[name="tz"]', "Asia/Seoul");
      await v.page.selectOption('select[name="lang"]', "de");
      await v.page.getByRole("button", { name: "Show" }).click();
      await v.page.waitForURL(/lang=de/);
      await hydrated(v.page);
      assert.equal(await v.page.getAttribute("html", "lang"), "de");
      assert.equal(await v.page.locator("h1").innerText(), "Countdown bis zum Feiertag");
      assert.equal(await zoneOnPage(v.page), "Gezählt bis Mitternacht in Asia/Seoul.");
      assert.equal(await v.page.inputValue('select[name="region"]'), "JP");
      await shot(v.page, "events-jp-de", { fullPage: true });
      assert.deepEqual(v.errors, []);
      await v.close();
    });

    await t.step("a Japanese page names Japan's holidays in Japanese when the region is picked in place", async () => {
      const v = await open(browser, `${s.url}/events?region=US&tz=Asia/Tokyo&lang=ja`);
      // On the pinned day Thanksgiving is still ahead in Tokyo: US names stay in English.
      const us = await v.page.locator(".ev-name").allInnerTexts();
      assert.ok(
        us.includes("Thanksgiving Day") && !us.some((n) => /[\u3040-\u30ff\u4e00-\u9fff]/.test(n)),
        `the US list keeps its English names on a Japanese page: ${us}`,
      );
      await v.page.selectOption('select[name="region"]', "JP");
      await v.page.getByRole("status").filter({ hasText: /^日本/ }).waitFor();
      const names = await v.page.locator(".ev-name").allInnerTexts();
      assert.ok(names.some((n) => /勤労感謝の日|元日|成人の日|天皇誕生日/.test(n)), names.join());
      assert.ok(!names.some((n) => /Labor Thanksgiving|New Year's Day/.test(n)), names.join());
      await shot(v.page, "events-jp-ja");
      assert.deepEqual(v.errors, []);
      await v.close();
    });

    await t.step(
      "copy puts the embed builder's snippet on the clipboard; the link opens the same countdown",
      async () => {
        const v = await open(browser, `${s.url}/events?region=UK&tz=Europe/London`);
        await v.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: s.url });
        const card = v.page.locator(".ev").first();
        const name = await card.locator(".ev-name").innerText();
        const date = await card.getAttribute("data-date");
        await card.getByRole("button", { name: `Copy embed code: ${name}` }).click();
        await v.page.getByRole("status").filter({ hasText: `Embed code for ${name} copied.` }).waitFor();
        const url = widgetUrl(s.url, {
          type: "event",
          title: name,
          target_date: `${date}T00:00:00`,
          timezone: "Europe/London",
        });
        const snippet = embedSnippet(url, { width: EMBED.w, height: EMBED.h }, name);
        assert.equal(await v.page.evaluate(() => navigator.clipboard.readText()), snippet);
        await card.locator("summary").click();
        assert.equal(await card.locator("textarea").inputValue(), snippet);
        await shot(v.page, "events-uk-copied");

        const shown = seconds((await nextCard(v.page)).clock);
        const shownAt = performance.now();
        await card.getByRole("link", { name: `Open countdown: ${name}` }).click();
        await v.page.waitForURL((u) => u.pathname === "/widget");
        // Hydrated once it ticks (the faked clock hides the resource timings `loaded` waits for).
        await v.page.locator(".face-time").waitFor();
        await ticksFrom(v.page, ".face-time", await v.page.locator(".face-time").innerText());
        const widget = (await v.page.locator(".face-time").innerText()).replace(/\s+/g, " ").trim();
        // The same countdown, less the seconds the navigation took (several on a busy machine).
        const expected = shown - Math.round((performance.now() - shownAt) / 1000);
        assert.ok(Math.abs(seconds(widget) - expected) <= 2, `${widget} vs ${expected} s`);
        assert.equal(await v.page.locator(".face-title").innerText(), name);
        assert.deepEqual(v.errors, []);
        await v.close();
      },
    );

    await t.step("without JavaScript the list and the form still work", async () => {
      const v = await open(browser, `${s.url}/events?region=CN&tz=Asia/Shanghai`, { javaScriptEnabled: false });
      // That was a new year: the page fetched the new year's list (all of its remaining events).
      await v.page.waitForFunction(() => document.querySelectorAll(".ev").length >= 5);
      assert.equal(await v.page.locator(".ev-actions button").count(), 0, "no button that cannot work");
      await v.page.selectOption('select[name="region"]', "TW");
      await v.page.getByRole("button", { name: "Show" }).click();
      await v.page.waitForURL(/region=TW/);
      assert.match(v.page.url(), /tz=Asia%2FShanghai/);
      assert.equal(await v.page.inputValue('select[name="region"]'), "TW");
      await shot(v.page, "events-nojs-tw");
      await v.close();
    });

    await t.step("axe finds nothing serious in light, dark, narrow and reduced-motion views", async () => {
      for (
        const [name, o] of [
          ["light", { colorScheme: "light" }],
          ["dark", { colorScheme: "dark" }],
          ["mobile", { viewport: { width: 375, height: 800 }, colorScheme: "light", reducedMotion: "reduce" }],
        ] as const
      ) {
        const v = await open(browser, `${s.url}/events?region=CN&tz=Asia/Shanghai`, o);
        await v.page.locator(".ev summary").first().click();
        assert.deepEqual(await axeViolations(v.page), [], name);
        const wide = await v.page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
        assert.ok(wide <= 0, `${name}: the page scrolls sideways by ${wide}px`);
        if (name === "mobile") {
          await v.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: s.url });
          await v.page.locator(".ev-actions button").first().click();
          const toast = v.page.locator(".ev-toast");
          await toast.waitFor();
          assert.equal(await toast.evaluate((el) => getComputedStyle(el).animationName), "none");
        }
        await shot(v.page, `events-cn-${name}`, { fullPage: true });
        await v.close();
      }
    });

    await t.step("at 320 px (a phone, or 1280 px zoomed to 400%) every card keeps inside the page", async () => {
      const v = await open(browser, `${s.url}/events?tz=UTC`, { viewport: { width: 320, height: 700 } });
      const out = await v.page.evaluate(() => {
        const list = document.querySelector(".ev-list")!.getBoundingClientRect();
        return [...document.querySelectorAll(".ev")].map((li) => li.getBoundingClientRect())
          .filter((r) => r.left < list.left - 0.5 || r.right > list.right + 0.5).map((r) => `${r.left}..${r.right}`);
      });
      assert.deepEqual(out, [], "cards wider than the list");
      await shot(v.page, "events-320");
      await v.close();
    });
  } finally {
    await browser.close();
    await s.close();
  }
});
