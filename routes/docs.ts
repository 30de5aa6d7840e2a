/**
 * /docs: the interactive API reference (Scalar's standalone bundle, served by the service itself,
 * rendering /api/v1/openapi.json) and hand-written guides (every markdown file in docs/guides/, readable
 * in the repository too, rendered with marked; links between them as `other.md` work in both places). Every page carries a strict Content-Security-Policy; nothing is loaded from elsewhere.
 */
import type { Context, Hono } from "hono";
import { holdsSession, SITE_HEADER_CSS, siteHeaderHtml } from "../components/SiteHeader.tsx";
import { marked } from "marked";
import { contentSecurityPolicy } from "../lib/csp.ts";
import { acceptsGzip, gzip } from "../lib/gzip.ts";
import { asset } from "../lib/islands.tsx";
import type { AppEnv } from "../lib/http.ts";
// Keeps the renderer's package in the module graph, so Deno installs it with the app; its
// standalone bundle is then read from beside this file (the bundle is not an export of the package).
import "@scalar/api-reference/style.css" with { type: "text" };

const SCALAR_VERSION = "1.72.1";
const ASSET = `/docs/assets/scalar-${SCALAR_VERSION}.js`;

export const DOCS_CSP = contentSecurityPolicy({ inlineStyles: true, fonts: true, formAction: "'none'" });

const GUIDE_DIR = new URL("../docs/guides/", import.meta.url);
/** The guides shown first, in this order; any other file of docs/guides/ follows by name. */
const FIRST = ["quick-start", "webhooks", "widget", "run-a-show", "rate-limits"];

/** Every guide of docs/guides/: its slug (the file name) and title (its first `# ` heading). */
export const GUIDES: readonly { slug: string; title: string }[] = (() => {
  const out: { slug: string; title: string }[] = [];
  for (const e of Deno.readDirSync(GUIDE_DIR)) {
    const m = /^([a-z0-9-]+)\.md$/.exec(e.name);
    if (!e.isFile || !m) continue;
    const title = /^# (.+)$/m.exec(Deno.readTextFileSync(new URL(e.name, GUIDE_DIR)))?.[1].trim() ?? m[1];
    out.push({ slug: m[1], title });
  }
  const rank = (slug: string) => (FIRST.includes(slug) ? FIRST.indexOf(slug) : FIRST.length);
  return Object.freeze(out.sort((a, b) => rank(a.slug) - rank(b.slug) || a.slug.localeCompare(b.slug)));
})();

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!);

/**
 * The standalone bundle, read once from the npm package (its file is not an export of the package),
 * and gzipped once (4.3 MB as it is, 1.3 MB gzipped).
 */
let bundle: Promise<{ raw: Uint8Array<ArrayBuffer>; gzipped: Uint8Array<ArrayBuffer> }> | undefined;
function scalarBundle() {
  bundle ??= (async () => {
    const css = import.meta.resolve("@scalar/api-reference/style.css");
    if (!css.startsWith("file:")) throw new Error(`cannot locate @scalar/api-reference on disk (${css})`);
    const raw = await Deno.readFile(new URL("browser/standalone.js", css));
    return { raw, gzipped: await gzip(raw) };
  })();
  return bundle;
}

/** The repository's SECURITY.md, served at /docs/security. */
const SECURITY = "../security";
const guideCache = new Map<string, string>();
async function guideHtml(slug: string): Promise<string> {
  let html = guideCache.get(slug);
  if (!html) {
    const file = slug === SECURITY ? new URL("../SECURITY.md", import.meta.url) : new URL(`${slug}.md`, GUIDE_DIR);
    const md = await Deno.readTextFile(file);
    // A code block wider than the page scrolls inside itself: focusable, so a keyboard can scroll it too.
    html = (await marked.parse(md)).replaceAll("<pre>", '<pre tabindex="0">')
      // A link to another guide (`webhooks.md#retries`, as the repository reads it) goes to its page here.
      .replace(
        /href="([a-z0-9-]+)\.md(#[^"]*)?"/g,
        (all, slug: string, hash = "") =>
          GUIDES.some((g) => g.slug === slug) ? `href="/docs/guides/${slug}${hash}"` : all,
      )
      // SECURITY.md (at the repository's root) is served at /docs/security; from SECURITY.md, guides are docs/guides/*.md.
      .replace(/href="(?:\.\.\/)*SECURITY\.md(#[^"]*)?"/g, (_, hash = "") => `href="/docs/security${hash}"`)
      .replace(
        /href="docs\/guides\/([a-z0-9-]+)\.md(#[^"]*)?"/g,
        (_, slug: string, hash = "") => `href="/docs/guides/${slug}${hash}"`,
      );
    guideCache.set(slug, html);
  }
  return html;
}

function nav(current: string): string {
  const links = [{ slug: "", title: "API reference" }, ...GUIDES].map((g) => {
    const href = g.slug ? `/docs/guides/${g.slug}` : "/docs";
    return `<a href="${href}"${g.slug === current ? ' aria-current="page"' : ""}>${esc(g.title)}</a>`;
  });
  return `<nav class="docs-nav" aria-label="Documentation">${links.join("")}</nav>`;
}

const STYLE = `body{margin:0;font:16px/1.55 system-ui,sans-serif;color:#1d1d28;background:#fff}
.site-header a{color:#4a42d6}
.docs-nav{display:flex;flex-wrap:wrap;gap:.25rem 1.25rem;padding:.6rem 1rem;background:#1d1d28;font-size:14px}
.docs-nav a{color:#e8e6ff;text-decoration:none}.docs-nav a[aria-current]{color:#fff;font-weight:600;text-decoration:underline}
.guide{max-width:52rem;margin:1.5rem auto;padding:0 1rem}.guide pre{background:#f3f3f7;padding:.75rem;overflow:auto;border-radius:6px}
.guide pre:focus-visible{outline:2px solid #4f46e5;outline-offset:2px}
.guide code{font-family:ui-monospace,monospace;font-size:.92em}.guide table{border-collapse:collapse}
.guide td,.guide th{border:1px solid #ddd;padding:.25rem .5rem;text-align:left;vertical-align:top}`;

function page(title: string, current: string, body: string, signedIn: boolean, head = ""): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} · Timer Service</title><link rel="icon" href="${asset("favicon.svg")}" type="image/svg+xml">
<style>${STYLE}\n${SITE_HEADER_CSS}</style>${head}</head>
<body>${siteHeaderHtml(signedIn, "docs")}${nav(current)}${body}</body></html>`;
}

/**
 * Scalar's `customCss`: overrides where axe found its default theme failing (serious or critical).
 * Scalar sets its colours as variables on .light-mode / .dark-mode (the body, and cards it always draws
 * dark, such as an operation's example request), in sRGB and again in display-p3; ours win by specificity.
 */
const THEME_CSS = [
  // color-contrast: text below 4.5:1: the muted greys (color-2, color-3: the version badges, the client
  // tabs, "Example", the search placeholder) and the HTTP-method colours (GET blue, POST green, PATCH
  // yellow at 1.6:1, DELETE red, "required" orange). The same hues, darkened (light) or lightened (dark)
  // to at least 4.7:1 on every background of the theme (#fff, #f6f6f6, #e7e7e7; #0f0f0f, #1a1a1a, #272727).
  `body.light-mode,body .light-mode{--scalar-color-2:#555;--scalar-color-3:#666;--scalar-color-green:#007449;
--scalar-color-red:#cd0000;--scalar-color-yellow:#7f6100;--scalar-color-blue:#0069aa;--scalar-color-orange:#b43d00;
--scalar-color-query:#007074}`,
  `body.dark-mode,body .dark-mode{--scalar-color-3:#919191;--scalar-color-red:#f65e5e}`,
  // button-name (critical): a code block's copy button (in the reference and in the API client's
  // response) has its name ("cURL Copy", "JSON Copy") in a visually hidden span, but inside a `hidden`
  // (display:none) one shown only while the block is hovered or focused, so screen readers browsing the
  // page found a nameless button. The visually hidden copy is displayed always (the visible label keeps
  // Scalar's hover behaviour).
  `[class~="group/copy-button"] .sr-only .hidden{display:inline}`,
  // scrollable-region-focusable (serious): a tag's "Operations" card lists its paths unwrapped in a box
  // of at most 60vh that scrolls, but its entries are links without href, so a keyboard cannot reach
  // them nor scroll the box (the Webhooks tag: its long paths and webhook titles overflowed at every
  // width). Paths wrap and the card grows to its list instead: nothing in it scrolls.
  `.endpoints-card .scalar-card-content{max-height:none}.endpoints{overflow:visible}
.endpoints .endpoint{white-space:normal}.endpoints .endpoint-path{overflow-wrap:anywhere}`,
].join("\n");

/**
 * Runs before the bundle. The bundle includes zod 4 (Scalar's schemas of its API client's data: servers,
 * security schemes, requests), which probes once, as it builds them, whether it may compile parsers with
 * `Function("")` (its faster "JIT" object parser); under script-src 'self' that probe throws and is
 * reported as a CSP eval violation, then zod falls back to its interpreter: nothing visible breaks.
 * `jitless` is zod's own setting for CSP pages (z.config({ jitless: true })), read from
 * globalThis.__zod_globalConfig: it skips the probe, with the same parse results. Scalar is created once
 * the bundle (the next script) has run.
 */
const INIT = `globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });
document.addEventListener("DOMContentLoaded", () => Scalar.createApiReference("#reference", {
  url: "/api/v1/openapi.json",
  withDefaultFonts: false,
  hideClientButton: true,
  telemetry: false,
  showDeveloperTools: "never",
  agent: { disabled: true },
  mcp: { disabled: true },
  hideModels: false,
  documentDownloadType: "json",
  defaultOpenAllTags: true,
  customCss: ${JSON.stringify(THEME_CSS)},
}));`;

function strict(c: Context<AppEnv>) {
  c.header("Content-Security-Policy", DOCS_CSP);
  c.header("X-Content-Type-Options", "nosniff");
  c.header("Referrer-Policy", "no-referrer");
}

/** Registers /docs, its assets and the guides. */
export function docsRoutes(app: Hono<AppEnv>) {
  app.get("/docs", (c) => {
    strict(c);
    return c.html(page(
      "API reference",
      "",
      `<div id="reference"></div><script src="/docs/assets/init.js"></script><script src="${ASSET}"></script>`,
      holdsSession(c.req.header("cookie")),
    ));
  });
  app.get(ASSET, async (c) => {
    c.header("Cache-Control", "public, max-age=31536000, immutable");
    c.header("Content-Type", "text/javascript; charset=utf-8");
    c.header("X-Content-Type-Options", "nosniff");
    c.header("Vary", "Accept-Encoding");
    const { raw, gzipped } = await scalarBundle();
    if (!acceptsGzip(c.req.header("accept-encoding"))) return c.body(raw);
    c.header("Content-Encoding", "gzip");
    return c.body(gzipped);
  });
  app.get("/docs/assets/init.js", (c) => {
    c.header("Cache-Control", "public, max-age=300");
    c.header("Content-Type", "text/javascript; charset=utf-8");
    return c.body(INIT);
  });
  app.get("/docs/guides", (c) => {
    strict(c);
    const items = GUIDES.map((g) => `<li><a href="/docs/guides/${g.slug}">${esc(g.title)}</a></li>`).join("");
    return c.html(page(
      "Guides",
      "guides",
      `<main class="guide"><h1>Guides</h1><ul>${items}</ul>
<p>The API reference is at <a href="/docs">/docs</a>; the OpenAPI 3.1 document at
<a href="/api/v1/openapi.json">/api/v1/openapi.json</a>; how the service protects its users at
<a href="/docs/security">/docs/security</a>.</p></main>`,
      holdsSession(c.req.header("cookie")),
    ));
  });
  app.get("/docs/security", async (c) => {
    strict(c);
    c.header("Cache-Control", "private, max-age=300");
    c.header("Vary", "Cookie");
    const body = `<main class="guide">${await guideHtml(SECURITY)}</main>`;
    return c.html(page("Security", "", body, holdsSession(c.req.header("cookie"))));
  });
  app.get("/docs/guides/:slug", async (c) => {
    const guide = GUIDES.find((g) => g.slug === c.req.param("slug"));
    if (!guide) return c.notFound();
    strict(c);
    // The header depends on the session cookie: cached by the browser only.
    c.header("Cache-Control", "private, max-age=300");
    c.header("Vary", "Cookie");
    const body = `<main class="guide">${await guideHtml(guide.slug)}</main>`;
    return c.html(page(guide.title, guide.slug, body, holdsSession(c.req.header("cookie"))));
  });
}
