/**
 * Islands without Fresh. The server renders a page with preact-render-to-string; an island's
 * root is a `<div data-island="Name" data-props="{…json…}">` around its server render (the
 * props travel in an attribute, which the renderer escapes, so no title can break out of it).
 * `scripts/build.ts` bundles `islands/*.tsx` and `lib/boot.ts` into static/build/; a page that
 * rendered an island gets the boot module, which imports each island's bundle and hydrates; a
 * page whose only island has a solo bundle (the widgets, the stage) gets that one file instead.
 * A page without islands ships no JavaScript at all.
 */
import { type ComponentType, createContext, type VNode } from "preact";
import { useContext } from "preact/hooks";
import { renderToString } from "preact-render-to-string";

const STATIC_DIR = new URL("../static/", import.meta.url);
export const BUILD_DIR = new URL("build/", STATIC_DIR);

/** What `scripts/build.ts` writes to static/build/manifest.json. */
export interface Manifest {
  /** Short hash of every output file: the `?v=` of entry URLs. */
  version: string;
  /** Hash of the build's inputs, for the staleness check. */
  inputs: string;
  /** Island name → entry file relative to static/build/. */
  islands: Record<string, string>;
  /** The boot entry relative to static/build/. */
  boot: string;
  /** Island name → a bundle of that island with its hydration, for a page where it is alone. */
  solo?: Record<string, string>;
  /** Every output file relative to static/build/. */
  files: string[];
}

/** How long a looked-up build or asset version is trusted before its file is checked again. */
const RECHECK_MS = 1000;

let cached: { mtime: number; manifest: Manifest | null; checked: number } | null = null;

/** The current build's manifest, re-read when the build changes; null when nothing is built. */
export function readManifest(): Manifest | null {
  const now = Date.now();
  if (cached && now - cached.checked < RECHECK_MS) return cached.manifest;
  const file = new URL("manifest.json", BUILD_DIR);
  try {
    const mtime = Deno.statSync(file).mtime?.getTime() ?? 0;
    if (cached?.mtime !== mtime) cached = { mtime, manifest: JSON.parse(Deno.readTextFileSync(file)), checked: now };
    cached.checked = now;
    return cached.manifest;
  } catch {
    cached = { mtime: -1, manifest: null, checked: now };
    return null;
  }
}

const assetCache = new Map<string, { mtime: number; url: string; checked: number }>();

/** The URL of a file under static/ with a content hash query, so it can be cached for a year. */
export function asset(path: string): string {
  const now = Date.now();
  const hit = assetCache.get(path);
  if (hit && now - hit.checked < RECHECK_MS) return hit.url;
  const file = new URL(path, STATIC_DIR);
  try {
    const mtime = Deno.statSync(file).mtime?.getTime() ?? 0;
    if (hit?.mtime === mtime) {
      hit.checked = now;
      return hit.url;
    }
    const url = `/static/${path}?v=${fnv1a(Deno.readFileSync(file))}`;
    assetCache.set(path, { mtime, url, checked: now });
    return url;
  } catch {
    return `/static/${path}`;
  }
}

/** FNV-1a, 32 bits, as 8 hex digits: a cheap content tag for cache busting. */
export function fnv1a(bytes: Uint8Array): string {
  let h = 0x811c9dc5;
  for (const b of bytes) h = Math.imul(h ^ b, 0x01000193);
  return (h >>> 0).toString(16).padStart(8, "0");
}

const Collector = createContext<Set<string> | null>(null);

/**
 * Wraps an island component (default export of `islands/<name>.tsx`) for server rendering:
 * the result renders the component inside its marked root and records that the page needs JS.
 * Props must be JSON.
 */
export function island<P extends object>(name: string, Component: ComponentType<P>): ComponentType<P> {
  if (!/^[A-Z][A-Za-z0-9]*$/.test(name)) throw new Error(`island names are PascalCase file names, got "${name}"`);
  function IslandRoot(props: P) {
    useContext(Collector)?.add(name);
    return (
      <div data-island={name} data-props={JSON.stringify(props)}>
        <Component {...props} />
      </div>
    );
  }
  IslandRoot.displayName = `Island(${name})`;
  return IslandRoot;
}

/** Rendered island contents by memo key (see `islandHtml`); bounded, cleared when full. */
const memo = new Map<string, string>();
const MEMO_MAX = 2000;

/**
 * The HTML of an island as `island()` renders it, for pages assembled as strings. With a
 * `memoKey` that names everything the component's server render depends on, the inner HTML is
 * rendered once per key: a widget embedded on a busy page is rendered per second, not per
 * request. The props (which carry the instant of rendering) are always serialised afresh.
 */
export function islandHtml<P extends object>(
  name: string,
  Component: ComponentType<P>,
  props: P,
  memoKey?: string,
): string {
  let inner = memoKey === undefined ? undefined : memo.get(memoKey);
  if (inner === undefined) {
    inner = renderToString(<Component {...props} />);
    if (memoKey !== undefined) {
      if (memo.size >= MEMO_MAX) memo.clear();
      memo.set(memoKey, inner);
    }
  }
  return `<div data-island="${esc(name)}" data-props="${esc(JSON.stringify(props))}">${inner}</div>`;
}

export interface PageOptions {
  lang: string;
  title: string;
  /** Style sheets under static/. */
  css: string[];
  /** Attributes of <html>, e.g. data-theme and the primary colour's custom properties. */
  htmlAttrs?: Record<string, string>;
  bodyClass?: string;
  description?: string;
}

/** Text and attribute values escaped as preact-render-to-string escapes them. */
function esc(s: string): string {
  return s.replace(/[&<"]/g, (c) => c === "&" ? "&amp;" : c === "<" ? "&lt;" : "&quot;");
}

/** The <head> links of a page (style sheets, boot module, island preloads), by what decides them. */
const headCache = new Map<string, string>();

function headLinks(css: string[], islands: Set<string>): string {
  const m = islands.size > 0 ? readManifest() : null;
  const styles = css.map(asset);
  const key = `${styles.join(" ")}|${[...islands].join(" ")}|${m?.version ?? ""}`;
  let links = headCache.get(key);
  if (links !== undefined) return links;
  links = styles.map((href) => `<link rel="stylesheet" href="${esc(href)}"/>`).join("");
  const only = islands.size === 1 ? m?.solo?.[[...islands][0]] : undefined;
  if (only) {
    // One island, bundled with its hydration: one script, nothing else to preload.
    links += `<script type="module" src="${esc(`/static/build/${only}?v=${m!.version}`)}"></script>`;
  } else if (islands.size > 0) {
    const v = m?.version ?? "0";
    links += `<script type="module" src="${esc(`/static/build/${m?.boot ?? "lib/boot.js"}?v=${v}`)}"></script>`;
    for (const name of islands) {
      const file = m?.islands[name] ?? `islands/${name}.js`;
      links += `<link rel="modulepreload" href="${esc(`/static/build/${file}?v=${v}`)}"/>`;
    }
  }
  if (headCache.size > 256) headCache.clear();
  headCache.set(key, links);
  return links;
}

/**
 * Renders a whole page; islands it contains pull in the boot module and their bundles. The
 * body is a tree to render, or HTML already rendered with the islands it holds. Only the body
 * goes through the renderer; the document around it is a string whose static parts
 * are cached (the widget is rendered for every embed, so this is a hot path).
 */
export function renderPage(body: VNode | { html: string; islands: string[] }, opts: PageOptions): string {
  let used: Set<string>;
  let content: string;
  if ("html" in body) {
    used = new Set(body.islands);
    content = body.html;
  } else {
    used = new Set<string>();
    content = renderToString(<Collector.Provider value={used}>{body}</Collector.Provider>);
  }
  let attrs = ` lang="${esc(opts.lang)}"`;
  for (const [k, v] of Object.entries(opts.htmlAttrs ?? {})) attrs += ` ${k}="${esc(v)}"`;
  return `<!doctype html><html${attrs}><head><meta charset="utf-8"/>` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"/><title>${esc(opts.title)}</title>` +
    (opts.description ? `<meta name="description" content="${esc(opts.description)}"/>` : "") +
    `<link rel="icon" href="${esc(asset("favicon.svg"))}" type="image/svg+xml"/>${headLinks(opts.css, used)}</head>` +
    `<body${opts.bodyClass ? ` class="${esc(opts.bodyClass)}"` : ""}>${content}</body></html>`;
}
