/** The home page's embed builder in headless Chromium, and its snippet inside a host page elsewhere. */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { axeViolations, ensureBuilt, fits, hydrated, launch, serve, shot, watchErrors } from "./harness.ts";

/** A page on another origin (localhost vs 127.0.0.1) that embeds whatever snippet it is given. */
function hostSite() {
  let html = "";
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen() {} },
    () => new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } }),
  );
  return {
    url: `http://localhost:${server.addr.port}/`,
    set(snippet: string) {
      html = `<!doctype html><html lang="en"><head><title>Host</title></head>
<body style="margin:0;padding:20px;background:#eee;font-family:sans-serif"><h1>My blog</h1>${snippet}</body></html>`;
    },
    close: () => server.shutdown(),
  };
}

async function setSize(page: Page, w: number, h: number) {
  await page.fill('input[name="width"]', String(w));
  await page.fill('input[name="height"]', String(h));
  await page.locator('input[name="height"]').blur();
}

const snippetOf = (page: Page) => page.inputValue('textarea[name="snippet"]');

Deno.test("the embed builder in a browser", async (t) => {
  await ensureBuilt();
  const s = await serve();
  const host = hostSite();
  const browser = await launch();
  const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: s.url });
  const page = await context.newPage();
  const errors = watchErrors(page);
  try {
    await page.goto(`${s.url}/`);
    await hydrated(page);
    await page.frameLocator(".builder-preview iframe").locator(".face-hms").waitFor();
    await shot(page, "home", { fullPage: true });

    await t.step("choosing options updates the preview and the snippet", async () => {
      await page.selectOption('select[name="type"]', "interval");
      await page.fill('input[name="title"]', "Leg day");
      await page.fill('input[name="work"]', "45");
      await page.fill('input[name="rest"]', "15");
      await page.fill('input[name="rounds"]', "6");
      await page.selectOption('select[name="theme"]', "light");
      await page.selectOption('select[name="lang"]', "es");
      await page.uncheck('input[name="alarm"]');
      const expected =
        `${s.url}/widget?type=interval&work=45&rest=15&rounds=6&title=Leg+day&theme=light&lang=es&alarm=0`;
      assert.equal(
        await snippetOf(page),
        `<iframe src="${
          expected.replaceAll("&", "&amp;")
        }" style="width:320px;height:240px;border:0" loading="lazy" title="Leg day"></iframe>`,
      );
      const preview = page.locator(".builder-preview iframe");
      await page.waitForFunction(
        (src) => document.querySelector(".builder-preview iframe")?.getAttribute("src") === src,
        expected,
      );
      const frame = page.frameLocator(".builder-preview iframe");
      await frame.locator(".face-round").filter({ hasText: "Ronda 1 de 6" }).waitFor();
      assert.deepEqual(await preview.boundingBox().then((b) => [b?.width, b?.height]), [320, 240]);
      await shot(page, "home-builder");
    });

    await t.step("sizes are clamped to 80×40…600×600", async () => {
      await setSize(page, 50, 900);
      assert.equal(await page.inputValue('input[name="width"]'), "80");
      assert.equal(await page.inputValue('input[name="height"]'), "600");
      assert.match(await snippetOf(page), /style="width:80px;height:600px;border:0"/);
      await setSize(page, 80, 40);
      assert.match(await snippetOf(page), /style="width:80px;height:40px;border:0"/, "a badge");
    });

    await t.step("the copy button puts the snippet on the clipboard", async () => {
      await page.getByRole("button", { name: "Copy the code" }).click();
      await page.getByText("Copied to the clipboard.").waitFor();
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), await snippetOf(page));
    });

    await t.step("the snippet works inside a host page on another origin at 80×40, 100×200 and 600×600", async () => {
      await page.selectOption('select[name="type"]', "countdown");
      await page.fill('input[name="minutes"]', "25");
      await page.selectOption('select[name="theme"]', "dark");
      await page.selectOption('select[name="lang"]', "en");
      for (const [w, h] of [[80, 40], [100, 200], [600, 600]]) {
        await setSize(page, w, h);
        const snippet = await snippetOf(page);
        assert.match(snippet, new RegExp(`width:${w}px;height:${h}px`));
        host.set(snippet);
        const hostPage = await context.newPage();
        const hostErrors = watchErrors(hostPage);
        await hostPage.goto(host.url);
        const iframe = hostPage.locator("iframe");
        assert.equal(await iframe.getAttribute("loading"), "lazy");
        assert.equal(await iframe.getAttribute("title"), "Leg day");
        const box = await iframe.boundingBox();
        assert.deepEqual([box?.width, box?.height], [w, h]);
        // A lazy iframe may start loading after the host page's own load event: wait for its navigation.
        const frame = (await (await iframe.elementHandle())!.contentFrame())!;
        await frame.waitForURL(/\/widget/, { timeout: 10_000 }).catch(() => {});
        assert.ok(frame.url().includes("/widget"), `the widget loaded in the frame (framing allowed): ${frame.url()}`);
        await frame.waitForSelector('.face[data-state="running"]');
        await frame.waitForLoadState("load");
        await frame.waitForTimeout(300);
        const clock = await frame.locator(".face-hms").innerText();
        assert.match(clock, /^2[45]:\d\d$/);
        const fit = await fits(frame as unknown as Page);
        assert.ok(fit.ok, fit.detail);
        await shot(hostPage, `host-page-${w}x${h}`);
        assert.deepEqual(hostErrors, []);
        await hostPage.close();
      }
    });

    await t.step("axe finds no serious or critical violations on the home page", async () => {
      assert.deepEqual(await axeViolations(page), []);
      await page.emulateMedia({ colorScheme: "dark" });
      assert.deepEqual(await axeViolations(page), []);
      await page.emulateMedia({ colorScheme: "light" });
    });

    await t.step("on 360 and 320 px phones nothing scrolls sideways; the preview scales the widget down", async () => {
      for (const viewport of [{ width: 360, height: 640 }, { width: 320, height: 568 }]) {
        const phone = await browser.newContext({ viewport });
        const p = await phone.newPage();
        const errs = watchErrors(p);
        for (const q of ["", "?lang=ja", "?lang=de"]) {
          const where = `/${q} at ${viewport.width}x${viewport.height}`;
          await p.goto(`${s.url}/${q}`);
          await hydrated(p);
          for (const type of ["countdown", "event", "interval"]) {
            await p.selectOption('select[name="type"]', type);
            const out = await p.evaluate(() => {
              const found: string[] = [];
              const wide = document.documentElement.scrollWidth - innerWidth;
              if (wide > 1) found.push(`the page scrolls sideways by ${wide}px`);
              for (const el of document.querySelectorAll<HTMLElement>("body *")) {
                const r = el.getBoundingClientRect();
                if (r.width > 1 && r.height > 1 && (r.left < -1 || r.right > innerWidth + 1)) {
                  found.push(
                    `<${el.tagName.toLowerCase()} class="${el.className}"> ${Math.round(r.left)}…${
                      Math.round(r.right)
                    }`,
                  );
                }
              }
              return found.slice(0, 6);
            });
            assert.deepEqual(out, [], `${where}, ${type}`);
          }
          // The widget is laid out at the chosen size (320×240 by default) and shown scaled to the room.
          await p.selectOption('select[name="type"]', "countdown");
          const preview = p.locator(".builder-preview iframe");
          const frame = (await (await preview.elementHandle())!.contentFrame())!;
          await frame.waitForSelector(".face-hms");
          assert.deepEqual(await frame.evaluate(() => [innerWidth, innerHeight]), [320, 240], where);
          const box = (await preview.boundingBox())!;
          assert.ok(box.width < 320 && box.width > 200, `${where}: the preview is ${box.width}px wide`);
          assert.ok(Math.abs(box.height / box.width - 240 / 320) < 0.01, `${where}: the preview keeps 320:240`);
          assert.match(await p.inputValue('textarea[name="snippet"]'), /width:320px;height:240px/);
          assert.deepEqual(await axeViolations(p), [], where);
          await shot(p, `home-phone${viewport.width}${q ? `-${q.slice(6)}` : ""}`, { fullPage: true });
        }
        assert.deepEqual(errs, []);
        await phone.close();
      }
    });

    await t.step("the home page speaks the browser's language and switches to another", async () => {
      const ja = await browser.newContext({ locale: "ja-JP", viewport: { width: 1280, height: 1000 } });
      const p = await ja.newPage();
      const errs = watchErrors(p);
      await p.goto(`${s.url}/`);
      await hydrated(p);
      assert.equal(await p.getAttribute("html", "lang"), "ja");
      await p.getByRole("heading", { name: "埋め込みビルダー" }).waitFor();
      await p.getByRole("navigation", { name: "言語" }).getByRole("link", { name: "日本語" }).waitFor();
      // The builder speaks Japanese, and its widget preview starts in Japanese.
      await p.getByLabel("タイトル", { exact: true }).waitFor();
      assert.match(await p.inputValue('textarea[name="snippet"]'), /lang=ja/);
      await shot(p, "home-ja");
      await p.getByRole("link", { name: "Deutsch" }).click();
      await p.waitForURL(/lang=de/);
      assert.equal(await p.getAttribute("html", "lang"), "de");
      await p.getByRole("heading", { name: "Einbettungs-Generator" }).waitFor();
      assert.deepEqual(await axeViolations(p), []);
      assert.deepEqual(errs, []);
      await ja.close();
    });
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
    await browser.close();
    await host.close();
    await s.close();
  }
});
