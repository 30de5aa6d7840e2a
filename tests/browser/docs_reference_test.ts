/**
 * /docs, the interactive reference (Scalar's bundle under the page's strict CSP), at a desktop's and a
 * phone's size, in light and dark: once every section has rendered (Scalar renders operations as they
 * scroll into view), axe finds no serious or critical violation, no CSP violation is reported (the
 * page listens for `securitypolicyviolation`), nothing is fetched from elsewhere and nothing logs an
 * error. The search dialog and the API client modal are checked too, without the rules named below.
 */
import assert from "node:assert/strict";
import type { BrowserContext, Page } from "playwright-core";
import { axeViolations, ensureBuilt, launch, offline, serve, type Served, watchErrors } from "./harness.ts";

const SIZES = [[1440, 900], [360, 640]] as const;
const SCHEMES = ["light", "dark"] as const;

interface Watched {
  page: Page;
  errors: string[];
  outside: string[];
  /** The page's CSP violation reports, as "directive blocked-URI (source:line)". */
  csp: () => Promise<string[]>;
}

/** A page of `context` that records console errors, requests to other origins and CSP reports. */
async function watchedPage(srv: Served, context: BrowserContext): Promise<Watched> {
  const page = await context.newPage();
  const errors = watchErrors(page);
  // Offline: anything not served by the service itself is refused and recorded.
  const outside = await offline(page, srv.url);
  await page.addInitScript(() => {
    const seen: string[] = [];
    Object.defineProperty(globalThis, "__cspReports", { value: seen });
    document.addEventListener("securitypolicyviolation", (e) => {
      seen.push(`${e.effectiveDirective} ${e.blockedURI} (${e.sourceFile}:${e.lineNumber})`);
    });
  });
  return { page, errors, outside, csp: () => page.evaluate("globalThis.__cspReports") as Promise<string[]> };
}

/**
 * Waits until no animation or transition runs: Scalar fades its dialogs in, and axe measuring a colour
 * halfway through the fade reports a contrast the reader never sees once it has settled.
 */
async function settled(page: Page) {
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== "running"));
}

/** Loads /docs and waits for the reference; then scrolls to the end so every section renders. */
async function openReference(srv: Served, page: Page) {
  await page.goto(`${srv.url}/docs`, { waitUntil: "load" });
  await page.getByRole("heading", { name: "Timer Service API" }).waitFor({ timeout: 20_000 });
  for (let i = 0; i < 200; i++) {
    const end = await page.evaluate(() => {
      scrollBy(0, innerHeight);
      return innerHeight + scrollY >= document.documentElement.scrollHeight - 2;
    });
    await page.waitForTimeout(50);
    if (end) break;
  }
  // The last operation's example (its copy buttons) has rendered.
  await page.waitForTimeout(500);
  await page.evaluate(() => scrollTo(0, 0));
  await settled(page);
}

Deno.test({
  name: "/docs: no serious axe violation, no CSP report, no error, light and dark, desktop and phone",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async (t) => {
    await ensureBuilt();
    const srv = await serve();
    const browser = await launch();
    try {
      for (const scheme of SCHEMES) {
        for (const [width, height] of SIZES) {
          await t.step(`${scheme}, ${width}×${height}`, async () => {
            const context = await browser.newContext({ viewport: { width, height }, colorScheme: scheme });
            const w = await watchedPage(srv, context);
            await openReference(srv, w.page);
            assert.equal(await w.page.evaluate(() => document.body.classList.contains(`dark-mode`)), scheme === "dark");
            // Every code block's copy button has a name (it was nameless until hovered or focused).
            const copies = w.page.locator("button.scalar-code-copy");
            assert.ok(await copies.count() > 10, "the examples of every operation rendered");
            assert.equal(await w.page.getByRole("button", { name: /Copy$/ }).count(), await copies.count());
            // color-contrast, button-name and scrollable-region-focusable failed here before Scalar's customCss.
            assert.deepEqual(await axeViolations(w.page), [], `${scheme} ${width}×${height}`);
            assert.deepEqual(await w.csp(), [], "no CSP violation (zod's eval probe is off: jitless)");
            assert.deepEqual(w.outside, [], "nothing was fetched from outside the service");
            // No link hands the document's address to another site (Scalar's "Open API Client": hideClientButton).
            const away = await w.page.evaluate(
              (origin) =>
                [...document.querySelectorAll<HTMLAnchorElement>("a[href]")].map((a) => a.href).filter((h) =>
                  /^https?:/.test(h) && new URL(h).origin !== origin
                ),
              srv.url,
            );
            assert.deepEqual(away.filter((h) => /client\.scalar\.com/.test(h)), [], "no link to client.scalar.com");
            assert.deepEqual(w.errors, []);
            await context.close();
          });
        }
      }

      await t.step("the search dialog and the API client modal (light, 1440×900)", async () => {
        const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
        const w = await watchedPage(srv, context);
        await w.page.goto(`${srv.url}/docs`, { waitUntil: "load" });
        await w.page.getByRole("heading", { name: "Timer Service API" }).waitFor({ timeout: 20_000 });

        await w.page.locator(".sidebar-search-placeholder").click();
        const search = w.page.getByRole("combobox");
        await search.fill("pause");
        await w.page.getByRole("option").first().waitFor();
        await settled(w.page);
        // Left out, not fixable by Scalar's configuration: aria-required-attr (critical): the search
        // field has role=combobox without aria-expanded (Scalar's ScalarSearchInput).
        const inSearch = (await axeViolations(w.page)).filter((v) => v.id !== "aria-required-attr");
        assert.deepEqual(inSearch, [], "search dialog");
        await w.page.keyboard.press("Escape");

        await w.page.locator("button.show-api-client-button").first().click();
        await w.page.getByRole("dialog").getByRole("button", { name: /^Send/ }).first().waitFor();
        await settled(w.page);
        // Left out, not fixable by configuration (the client's own markup):
        // - aria-required-attr (critical): its parameter and header editors (contenteditable, role
        //   combobox by aria-autocomplete) have neither aria-expanded nor aria-controls;
        // - aria-prohibited-attr (serious): its "More Information" buttons have role="none" and an aria-label;
        // - aria-input-field-name (serious): its request-body editor (CodeMirror, role=textbox) has no label.
        const unfixable = ["aria-required-attr", "aria-prohibited-attr", "aria-input-field-name"];
        const inClient = (await axeViolations(w.page)).filter((v) => !unfixable.includes(v.id));
        assert.deepEqual(inClient, [], "API client modal");

        assert.deepEqual(await w.csp(), [], "no CSP violation in the search or the client");
        assert.deepEqual(w.outside, [], "nothing was fetched from outside the service");
        assert.deepEqual(w.errors, []);
        await context.close();
      });
    } finally {
      await browser.close();
      await srv.close();
    }
  },
});
