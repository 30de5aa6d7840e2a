/**
 * Islands without Fresh. The server renders a page with preact-render-to-string; an island's
 * root is a `<div data-island="Name" data-props="{…json…}">` around its server render (the
 * props travel in an attribute, which the renderer escapes, so no title can break out of it).
 * `scripts/build.ts` bundles `islands/*.tsx` and `lib/boot.ts` into static/build/; a page that
 * rendered an island gets the boot module, which imports each island's bundle and hydrates.
 * A page without islands ships no JavaScript at all.
 */
import { type ComponentType, createContext, type JSX, type VNode } from "preact";
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
  /** Every output file relative to static/build/. */
  files: string[];
}

let cached: { mtime: number; manifest: Manifest } | null = null;

/** The current build's manifest, re-read when the build changes; null when nothing is built. */
export function readManifest(): Manifest | null {
  const file = new URL("manifest.json", BUILD_DIR);
  try {
    const mtime = Deno.statSync(file).mtime?.getTime() ?? 0;
    if (cached?.mtime !== mtime) cached = { mtime, manifest: JSON.parse(Deno.readTextFileSync(file)) };
    return cached.manifest;
  } catch {
    return null;
  }
}

const assetCache = new Map<string, { mtime: number; url: string }>();

/** The URL of a file under static/ with a content hash query, so it can be cached for a year. */
export function asset(path: string): string {
  const file = new URL(path, STATIC_DIR);
  try {
    const mtime = Deno.statSync(file).mtime?.getTime() ?? 0;
    const hit = assetCache.get(path);
    if (hit?.mtime === mtime) return hit.url;
    const url = `/static/${path}?v=${fnv1a(Deno.readFileSync(file))}`;
    assetCache.set(path, { mtime, url });
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

/** Renders a whole page; islands it contains pull in the boot module and their bundles. */
export function renderPage(body: VNode, opts: PageOptions): string {
  const used = new Set<string>();
  const content = renderToString(<Collector.Provider value={used}>{body}</Collector.Provider>);
  const scripts: JSX.Element[] = [];
  if (used.size > 0) {
    const m = readManifest();
    const v = m?.version ?? "0";
    scripts.push(<script key="boot" type="module" src={`/static/build/${m?.boot ?? "lib/boot.js"}?v=${v}`} />);
    for (const name of used) {
      const file = m?.islands[name] ?? `islands/${name}.js`;
      scripts.push(<link key={name} rel="modulepreload" href={`/static/build/${file}?v=${v}`} />);
    }
  }
  const doc = (
    <html lang={opts.lang} {...opts.htmlAttrs}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{opts.title}</title>
        {opts.description && <meta name="description" content={opts.description} />}
        <link rel="icon" href="data:," />
        {opts.css.map((path) => <link key={path} rel="stylesheet" href={asset(path)} />)}
        {scripts}
      </head>
      <body class={opts.bodyClass} dangerouslySetInnerHTML={{ __html: content }} />
    </html>
  );
  return `<!doctype html>${renderToString(doc)}`;
}
