/**
 * 5. Page weight and render time of the embeddable widget: the gzipped bytes of every
 * JavaScript and CSS resource `/widget?duration=60` loads (script src, stylesheet and
 * modulepreload links, inline scripts and styles, then static and literal dynamic imports and
 * CSS @imports, recursively), and its server render rate as a ratio to a bare hello-world.
 */
import {
  compare,
  log,
  pairedRatio,
  type Proc,
  ROOT,
  round,
  seedAccount,
  spawn,
  startServer,
  tempKv,
} from "./harness.ts";
import { profileServer } from "./profile.ts";
import type { Mode, Result } from "./result.ts";

const PAGE = "/widget?duration=60";
const CONCURRENCY = 32;

export async function gzipSize(bytes: Uint8Array): Promise<number> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream("gzip"));
  return (await new Response(stream).arrayBuffer()).byteLength;
}

const unescape = (s: string) =>
  s.replace(/&amp;/g, "&").replace(/&quot;/g, '"').replace(/&#39;|&#x27;/g, "'").replace(/&lt;/g, "<").replace(
    /&gt;/g,
    ">",
  );

function attr(tag: string, name: string): string | null {
  const m = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, "i").exec(tag);
  return m ? unescape(m[1] ?? m[2] ?? m[3]) : null;
}

export interface PageAssets {
  js: string[];
  css: string[];
  inlineJs: string[];
  inlineCss: string[];
}

/** The JS and CSS a page's HTML refers to. */
export function parseHtml(html: string): PageAssets {
  const out: PageAssets = { js: [], css: [], inlineJs: [], inlineCss: [] };
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    const src = attr(m[1], "src");
    const type = attr(m[1], "type");
    if (src) out.js.push(src);
    else if (m[2].trim() && (!type || /module|javascript/i.test(type))) out.inlineJs.push(m[2]);
  }
  for (const m of html.matchAll(/<link\b[^>]*>/gi)) {
    const rel = (attr(m[0], "rel") ?? "").toLowerCase().split(/\s+/);
    const href = attr(m[0], "href");
    if (!href || href.startsWith("data:")) continue;
    if (rel.includes("stylesheet")) out.css.push(href);
    else if (rel.includes("modulepreload")) out.js.push(href);
    else if (rel.includes("preload") && attr(m[0], "as") === "script") out.js.push(href);
    else if (rel.includes("preload") && attr(m[0], "as") === "style") out.css.push(href);
  }
  for (const m of html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style\s*>/gi)) if (m[1].trim()) out.inlineCss.push(m[1]);
  return out;
}

/** Module specifiers a script imports with string literals (static, re-exports, dynamic). */
export function jsImports(code: string): { specs: string[]; unresolvedDynamic: number } {
  const specs = new Set<string>();
  const re = /\b(?:import|export)\s*(?:[\w$*{},\s]*?\bfrom\s*)?["']([^"'\n]+)["']/g;
  for (const m of code.matchAll(re)) specs.add(m[1]);
  for (const m of code.matchAll(/\bimport\s*\(\s*["'`]([^"'`$]+)["'`]\s*\)/g)) specs.add(m[1]);
  const dynamic = [...code.matchAll(/\bimport\s*\(/g)].length;
  const literal = [...code.matchAll(/\bimport\s*\(\s*["'`][^"'`$]+["'`]\s*\)/g)].length;
  const relative = [...specs].filter((s) => /^(\.{1,2}\/|\/|https?:)/.test(s));
  return { specs: relative, unresolvedDynamic: dynamic - literal };
}

export function cssImports(code: string): string[] {
  const out: string[] = [];
  for (const m of code.matchAll(/@import\s+(?:url\(\s*)?["']?([^"')\s;]+)["']?\s*\)?/g)) out.push(m[1]);
  return out;
}

interface Asset {
  url: string;
  kind: "js" | "css";
  status: number;
  bytes: number;
  gzip: number;
}

/** Fetches a page and everything JS/CSS it loads; sizes each resource gzipped. */
export async function pageWeight(base: string, path: string) {
  const res = await fetch(`${base}${path}`);
  const html = await res.text();
  if (res.status === 404) return { found: false as const, status: res.status };
  const page = parseHtml(html);
  const assets: Asset[] = [];
  const seen = new Set<string>();
  let unresolvedDynamic = 0;
  const queue: { url: string; kind: "js" | "css" }[] = [
    ...page.js.map((u) => ({ url: new URL(u, `${base}${path}`).href, kind: "js" as const })),
    ...page.css.map((u) => ({ url: new URL(u, `${base}${path}`).href, kind: "css" as const })),
  ];
  while (queue.length) {
    const { url, kind } = queue.shift()!;
    if (seen.has(url)) continue;
    seen.add(url);
    if (new URL(url).origin !== new URL(base).origin) {
      assets.push({ url, kind, status: 0, bytes: 0, gzip: 0 }); // third party: not fetched (127.0.0.1 only)
      continue;
    }
    const r = await fetch(url);
    const bytes = new Uint8Array(await r.arrayBuffer());
    assets.push({
      url: url.replace(base, ""),
      kind,
      status: r.status,
      bytes: bytes.byteLength,
      gzip: await gzipSize(bytes),
    });
    if (r.status !== 200) continue;
    const text = new TextDecoder().decode(bytes);
    if (kind === "js") {
      const imp = jsImports(text);
      unresolvedDynamic += imp.unresolvedDynamic;
      for (const s of imp.specs) queue.push({ url: new URL(s, url).href, kind: "js" });
    } else {
      for (const s of cssImports(text)) queue.push({ url: new URL(s, url).href, kind: "css" });
    }
  }
  const enc = new TextEncoder();
  const inline = [
    ...await Promise.all(page.inlineJs.map(async (c) => ({ kind: "js", gzip: await gzipSize(enc.encode(c)) }))),
    ...await Promise.all(page.inlineCss.map(async (c) => ({ kind: "css", gzip: await gzipSize(enc.encode(c)) }))),
  ];
  const sum = (xs: { gzip: number }[]) => xs.reduce((s, a) => s + a.gzip, 0);
  return {
    found: true as const,
    status: res.status,
    html_bytes: enc.encode(html).byteLength,
    html_gzip: await gzipSize(enc.encode(html)),
    assets,
    inline_gzip: sum(inline),
    js_gzip: sum(assets.filter((a) => a.kind === "js")) + sum(inline.filter((a) => a.kind === "js")),
    css_gzip: sum(assets.filter((a) => a.kind === "css")) + sum(inline.filter((a) => a.kind === "css")),
    total_gzip: sum(assets) + sum(inline),
    failed: assets.filter((a) => a.status !== 200 && a.status !== 0).map((a) => `${a.url} → ${a.status}`),
    unresolved_dynamic_imports: unresolvedDynamic,
  };
}

/** Builds the island bundles as `deno task start` does (only when stale), if the project has a build. */
async function buildAssets(): Promise<string> {
  try {
    await Deno.stat(`${ROOT}scripts/build.ts`);
  } catch {
    return "no scripts/build.ts";
  }
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "scripts/build.ts", "--if-stale"],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stderr).trim().split("\n").slice(-3).join(" | ");
  return out.success ? "ok" : `scripts/build.ts --if-stale failed (${out.code}): ${text}`;
}

export async function widget(mode: Mode): Promise<Result[]> {
  const build = await buildAssets();
  if (build !== "ok") log(`widget: ${build}`);
  const kv = await tempKv("widget");
  await seedAccount(kv.path);
  const procs: Proc[] = [];
  try {
    const app = await startServer("app", kv.path);
    procs.push(app);
    const w = await pageWeight(app.base, PAGE);
    if (!w.found) {
      return [
        {
          name: "widget_js_css_gzip_kb",
          value: "not measured: /widget not found",
          unit: "KB",
          target: "< 15 KB",
          met: false,
        },
        {
          name: "widget_render_rps_vs_hello",
          value: "not measured: /widget not found",
          unit: "ratio",
          target: "≥ 0.30",
          met: false,
        },
      ];
    }
    const kb = round(w.total_gzip / 1000, 2);
    const weight: Result = {
      name: "widget_js_css_gzip_kb",
      value: kb,
      unit: "KB",
      target: "< 15 KB (gzip, 1 KB = 1000 bytes)",
      met: w.total_gzip < 15_000 && w.failed.length === 0 && w.status === 200,
      ...w,
      build,
      note: w.failed.length
        ? `assets that did not load: ${w.failed.join(", ")}`
        : w.status !== 200
        ? `the page answered ${w.status}`
        : w.unresolved_dynamic_imports
        ? `${w.unresolved_dynamic_imports} dynamic import(s) with computed specifiers (covered by modulepreload links where present)`
        : undefined,
    };

    const hello = await spawn("floor-hello", "bench/floor_hello.ts", {});
    procs.push(hello);
    const rounds = mode.quick ? 4 : 6;
    const seconds = mode.quick ? 1 : 1.5;
    log(`widget: render rate vs hello-world, ${rounds}×${seconds}s at concurrency ${CONCURRENCY}`);
    const r = await compare([
      { name: "widget", proc: app, request: () => ({ url: `${app.base}${PAGE}` }) },
      { name: "hello", proc: hello, request: () => ({ url: `${hello.base}/` }) },
    ], { rounds, seconds, warmupSeconds: 1, concurrency: CONCURRENCY });
    const ratio = pairedRatio(r.widget, r.hello);
    const render: Result = {
      name: "widget_render_rps_vs_hello",
      value: ratio,
      unit: "ratio",
      target: "≥ 0.30, no errors",
      met: ratio >= 0.3 && r.widget.errors === 0,
      widget_rps: r.widget.rps_median,
      widget_rps_rounds: r.widget.rps_rounds,
      hello_rps: r.hello.rps_median,
      hello_rps_rounds: r.hello.rps_rounds,
      widget_errors: r.widget.errors,
      widget_statuses: r.widget.statuses,
      server_cpu_ms_per_render: r.widget.server_cpu_ms_per_req,
      hello_server_cpu_ms_per_req: r.hello.server_cpu_ms_per_req,
      client_cpu_ms_per_req: r.widget.client_cpu_ms_per_req,
      hello_client_cpu_ms_per_req: r.hello.client_cpu_ms_per_req,
      html_bytes: w.html_bytes,
    };
    if (!render.met) {
      log("widget: render target missed, profiling the server");
      const prof = await profileServer("widget", (base) => Promise.resolve(() => ({ url: `${base}${PAGE}` })), {
        seconds: mode.quick ? 1.5 : 4,
        concurrency: CONCURRENCY,
        dir: mode.profileDir,
      });
      render.profile = prof.file;
      render.hotspots = prof.hotspots;
      render.note =
        `the server spends ${r.widget.server_cpu_ms_per_req} ms CPU per render (hello-world ${r.hello.server_cpu_ms_per_req} ms); the load generator ${r.hello.client_cpu_ms_per_req} ms per request`;
    }
    return [weight, render];
  } finally {
    await Promise.all(procs.map((p) => p.stop()));
    await kv.cleanup();
  }
}
