/**
 * Browser-test harness: the real app on a `:memory:` KV and the real clock, served on a
 * loopback port, the island bundles built once, and one headless Chromium per test file.
 */
import { type Browser, chromium, type Page } from "playwright-core";
import { type Browser as FoundBrowser, BrowserError, ensureBrowser, launchProblem } from "../../scripts/browser.ts";
import { build } from "../../scripts/build.ts";
import { setup } from "../helpers.ts";

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * A year `n` years after this one: dates the tests count to stay ahead of today on every day the
 * suite runs (a literal year is a test that starts failing once that year comes).
 */
export const yearsAhead = (n: number) => new Date().getUTCFullYear() + n;

export const ARTIFACTS = new URL("../artifacts/", import.meta.url);

/** Builds the bundles unless they are current (one build however many test files ask). */
export async function ensureBuilt() {
  await build({ ifStale: true });
}

let chosen: Promise<FoundBrowser> | undefined;

/** An error shown as its one sentence (a launch log or a stack would bury it). */
function plain(message: string): Error {
  const e = new Error(message);
  e.stack = message;
  return e;
}

/**
 * Launches headless Chromium: the one scripts/browser.ts finds (CHROME_PATH, the system's,
 * Playwright's) or obtains once (apt-get as root, else an npm package).
 */
export async function launch(extraArgs: string[] = []): Promise<Browser> {
  chosen ??= ensureBrowser();
  let found: FoundBrowser;
  try {
    found = await chosen;
  } catch (e) {
    throw e instanceof BrowserError ? plain(e.message) : e;
  }
  const env = Object.keys(found.env).length ? { ...Deno.env.toObject(), ...found.env } : undefined;
  try {
    return await chromium.launch({ executablePath: found.path, env, args: [...CHROMIUM_ARGS, ...extraArgs] });
  } catch (e) {
    throw plain(launchProblem(found.path, e));
  }
}

/**
 * The app of tests/helpers.ts `setup()` with the real clock (or one running from `startAt`),
 * served on a loopback port; `siteUrl` is set to the server's own address once it listens.
 */
export async function serve(opts: { startAt?: number } = {}) {
  const s = await setup({ realTime: true, startAt: opts.startAt });
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, s.app.app.fetch);
  const url = `http://127.0.0.1:${server.addr.port}`;
  s.config.siteUrl = url;
  const pro = s.pro;

  /** Calls the API with the pro key (or `key`); returns status and parsed body. */
  async function api(method: string, path: string, body?: unknown, key = pro.apiKey) {
    const res = await fetch(`${url}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { "content-type": "application/json" } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    // deno-lint-ignore no-explicit-any
    let parsed: any = text;
    try {
      parsed = JSON.parse(text);
    } catch { /* not JSON */ }
    return { status: res.status, body: parsed };
  }

  /** Creates a timer as the pro account; returns the API's creation body. */
  async function createTimer(input: Record<string, unknown>) {
    const r = await api("POST", "/timers", input);
    if (r.status !== 201) throw new Error(`create failed: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body as {
      timer_id: string;
      title: string | null;
      control_url: string;
      viewer_url: string;
      embed_url: string;
    };
  }

  async function close() {
    await server.shutdown();
    await s.close();
  }

  return { ...s, url, api, createTimer, close };
}

export type Served = Awaited<ReturnType<typeof serve>>;

/** Saves a screenshot under tests/artifacts/ (gitignored). */
export async function shot(page: Page, name: string, opts: { fullPage?: boolean } = {}) {
  await Deno.mkdir(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: new URL(`${name}.png`, ARTIFACTS).pathname, fullPage: opts.fullPage });
}

/** Text of the widget's clock (days and h:m:s). */
export async function clockText(page: Page): Promise<string> {
  return (await page.locator(".face-time").innerText()).replace(/\s+/g, " ").trim();
}

/**
 * Waits until the text of `selector` differs from `was`: a running clock ticks. A busy machine
 * may paint a second late, so this waits up to `timeout` instead of reading once after a second.
 */
export async function ticksFrom(page: Page, selector: string, was: string, timeout = 5000) {
  await page.waitForFunction(
    ([sel, text]) => (document.querySelector(sel) as HTMLElement | null)?.innerText !== text,
    [selector, was] as const,
    { timeout },
  );
}

/** Waits until the island has hydrated (its effects ran) and the clock shows a real frame. */
export async function hydrated(page: Page) {
  await page.waitForLoadState("load");
  if (await page.locator("[data-island]").count() === 0) return;
  // The boot module imports the island, then hydrates: wait for that import to settle.
  await page.waitForFunction(() =>
    performance.getEntriesByType("resource").some((e) => /\/islands\/\w+\.js/.test(e.name))
  );
  await page.waitForTimeout(50);
}

/** axe-core's serious and critical violations on the page (axe's source is injected). */
export async function axeViolations(page: Page, context = "document") {
  const { default: axe } = await import("axe-core");
  if (!await page.evaluate("typeof window.axe === 'object'")) await page.evaluate(axe.source);
  const result = await page.evaluate(
    `axe.run(${context}, { resultTypes: ["violations"] }).then((r) => r.violations.map((v) => ({
      id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.html).slice(0, 3) })))`,
  ) as { id: string; impact: string; help: string; nodes: string[] }[];
  return result.filter((v) => v.impact === "serious" || v.impact === "critical");
}

/**
 * The focused element's `by` ("id" or "name"), once it is `expected` or 5 s have passed: the
 * browser applies `autofocus` on a later rendering step than the one that shows the page.
 */
export async function focusedBy(page: Page, by: "id" | "name", expected: string): Promise<string> {
  await page.waitForFunction(
    ([k, v]) => String((document.activeElement as HTMLInputElement | null)?.[k as "id"] ?? "") === v,
    [by, expected] as const,
    { timeout: 5000 },
  ).catch(() => {});
  return await page.evaluate((k) => String((document.activeElement as HTMLInputElement | null)?.[k as "id"] ?? ""), by);
}

/** Keeps `page` offline: requests to anywhere but `origin` are refused; returns the list of those refused. */
export async function offline(page: Page, origin: string): Promise<string[]> {
  const outside: string[] = [];
  await page.route("**/*", (route) => {
    const u = new URL(route.request().url());
    if (u.origin === origin) return route.continue();
    outside.push(u.href);
    return route.abort();
  });
  return outside;
}

/** Collects uncaught page errors and console errors of a page. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(`pageerror: ${e.message}`));
  page.on("console", (m) => {
    // Chrome logs blocked autoplay as a warning; real errors only.
    if (m.type() === "error") errors.push(`console: ${m.text()}`);
  });
  return errors;
}

/** Whether everything the face shows lies inside the viewport (nothing clipped or scrolled away). */
export async function fits(page: Page): Promise<{ ok: boolean; detail: string }> {
  return await page.evaluate(() => {
    const doc = document.documentElement;
    const out: string[] = [];
    if (doc.scrollWidth > doc.clientWidth + 1 || doc.scrollHeight > doc.clientHeight + 1) {
      out.push(`page scrolls: ${doc.scrollWidth}x${doc.scrollHeight} in ${doc.clientWidth}x${doc.clientHeight}`);
    }
    for (const el of document.querySelectorAll<HTMLElement>(".face > :not(.sr-only), .face-time > *")) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      if (r.left < -1 || r.top < -1 || r.right > innerWidth + 1 || r.bottom > innerHeight + 1) {
        out.push(`${el.className} at ${[r.left, r.top, r.right, r.bottom].map(Math.round)}`);
      }
      // A title cut to its lines by the clamp (its ellipsis shows it) may hang a line's trailing space
      // past its box: Chrome counts that space in scrollWidth, though nothing visible is there.
      const clamped = el.classList.contains("face-title") && el.scrollHeight > el.clientHeight + 1;
      if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).display !== "inline" && !clamped) {
        out.push(`${el.className} is wider than its box`);
      }
    }
    return { ok: out.length === 0, detail: `${innerWidth}x${innerHeight}: ${out.join("; ")}` };
  });
}
