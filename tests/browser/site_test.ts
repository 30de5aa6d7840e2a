/**
 * The site's frame in headless Chromium: the favicon every page links (and /favicon.ico) is an
 * image the browser decodes, and an unknown address is a page in the visitor's language with the
 * way home, readable on a phone.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { axeViolations, ensureBuilt, launch, serve, watchErrors } from "./harness.ts";

/** Loads `src` as an image in the page; its natural size (0×0 when it does not decode). */
function imageSize(page: Page, src: string) {
  return page.evaluate(async (url) => {
    const img = new Image();
    img.src = url;
    try {
      await img.decode();
    } catch { /* not an image */ }
    return [img.naturalWidth, img.naturalHeight];
  }, src);
}

Deno.test("the favicon and the page of an unknown address in a browser", async (t) => {
  await ensureBuilt();
  const s = await serve();
  const browser = await launch();
  try {
    await t.step("every kind of page links an icon that decodes; /favicon.ico is one too", async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      const errors = watchErrors(page);
      for (const path of ["/", "/events", "/widget?duration=60", "/login", "/docs/guides"]) {
        await page.goto(`${s.url}${path}`);
        const href = await page.locator('link[rel="icon"]').getAttribute("href");
        assert.match(href ?? "", /^\/static\/favicon\.svg\?v=/, path);
        const [w, h] = await imageSize(page, href!);
        assert.ok(w > 0 && h > 0, `${path}: the icon decodes (${w}×${h})`);
      }
      const [w, h] = await imageSize(page, "/favicon.ico");
      assert.ok(w > 0 && h > 0, `/favicon.ico decodes (${w}×${h})`);
      assert.deepEqual(errors, []);
      await context.close();
    });

    await t.step("an unknown address is a page with a title, a language and the way home", async () => {
      for (
        const [locale, lang, title, home] of [
          ["en-US", "en", "Page not found", "Go to the home page"],
          ["ja-JP", "ja", "ページが見つかりません", "ホームへ"],
        ] as const
      ) {
        const context = await browser.newContext({ locale, viewport: { width: 320, height: 568 } });
        const page = await context.newPage();
        const res = await page.goto(`${s.url}/nope`);
        assert.equal(res?.status(), 404);
        assert.equal(await page.title(), `${title} · Timer Service`);
        assert.equal(await page.getAttribute("html", "lang"), lang);
        await page.getByRole("heading", { level: 1, name: title }).waitFor();
        const wide = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
        assert.ok(wide <= 1, `${locale}: the page scrolls sideways by ${wide}px`);
        assert.deepEqual(await axeViolations(page), [], locale);
        await page.getByRole("link", { name: home }).click();
        await page.waitForURL(`${s.url}/`);
        assert.equal(await page.getAttribute("html", "lang"), lang, "the home page in the same language");
        await context.close();
      }
    });

    await t.step("the API keeps its JSON error in a browser", async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      const res = await page.goto(`${s.url}/api/v1/nope`);
      assert.equal(res?.status(), 404);
      assert.match(res?.headers()["content-type"] ?? "", /^application\/json/);
      assert.deepEqual(JSON.parse(await page.locator("body").innerText()), {
        error: { code: 404, message: "no route for GET /api/v1/nope" },
      });
      await context.close();
    });
  } finally {
    await browser.close();
    await s.close();
  }
});
