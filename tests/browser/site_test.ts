/** The site's frame in headless Chromium: the favicon every page links (and /favicon.ico) is an image the browser decodes. */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { ensureBuilt, launch, serve, watchErrors } from "./harness.ts";

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

Deno.test("the site's frame in a browser", async (t) => {
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
  } finally {
    await browser.close();
    await s.close();
  }
});
