/**
 * GET /static/* — files of static/ as they are. Versioned URLs (`?v=`) and esbuild's
 * content-hashed chunks are cached for a year; anything else for five minutes.
 */
import type { Context } from "hono";
import { acceptsGzip, gzip } from "../../lib/gzip.ts";

const ROOT = new URL("../../static/", import.meta.url);

const TYPES: Record<string, string> = {
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  json: "application/json; charset=utf-8",
  svg: "image/svg+xml",
  png: "image/png",
  ico: "image/x-icon",
  txt: "text/plain; charset=utf-8",
  map: "application/json; charset=utf-8",
};

const COMPRESSIBLE = new Set(["js", "css", "json", "svg", "txt", "map"]);

/** Gzipped bodies by path and modification time (the files are few and small). */
const gzipCache = new Map<string, { mtime: number; body: Uint8Array<ArrayBuffer> }>();

/** Style sheets without comments and layout whitespace, by path and modification time. */
const cssCache = new Map<string, { mtime: number; body: Uint8Array<ArrayBuffer> }>();

/**
 * The style sheet as browsers need it: comments and indentation dropped, spaces around
 * braces, semicolons, commas and after colons removed. Spaces before a colon (a descendant
 * pseudo-class selector) and inside values (`calc(a + b)`) are kept.
 */
export function minifyCss(css: string): string {
  return css.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\s+/g, " ").replace(/\s*([{};,])\s*/g, "$1")
    .replace(/:\s+/g, ":").replace(/;}/g, "}").trim();
}

/** esbuild names shared chunks `chunk-<HASH>.js`. */
const HASHED = /(^|\/)chunk-[A-Z0-9]{8,}\.js$/;

/** The handler: no directory listings, no escaping static/, no dotfiles. */
export function serveStatic() {
  return async function serveStatic(c: Context) {
    const missing = () => c.json({ error: { code: 404, message: `no file ${c.req.path}` } }, 404);
    let rel: string;
    try {
      rel = decodeURIComponent(c.req.path.replace(/^\/static\//, ""));
    } catch {
      return missing();
    }
    if (!rel || /[\\%?#]/.test(rel) || rel.split("/").some((seg) => seg === "" || seg.startsWith("."))) {
      return missing();
    }
    const file = new URL(rel, ROOT);
    if (!file.href.startsWith(ROOT.href)) return missing();
    const ext = rel.slice(rel.lastIndexOf(".") + 1).toLowerCase();
    let body: Uint8Array<ArrayBuffer>;
    try {
      body = await Deno.readFile(file);
    } catch {
      return missing();
    }
    if (ext === "css") {
      const mtime = (await Deno.stat(file)).mtime?.getTime() ?? 0;
      let hit = cssCache.get(rel);
      if (hit?.mtime !== mtime) {
        const min = new TextEncoder().encode(minifyCss(new TextDecoder().decode(body)));
        cssCache.set(rel, hit = { mtime, body: min });
        gzipCache.delete(rel);
      }
      body = hit.body;
    }
    const immutable = c.req.query("v") !== undefined || HASHED.test(rel);
    const headers: Record<string, string> = {
      "content-type": TYPES[ext] ?? "application/octet-stream",
      "cache-control": immutable ? "public, max-age=31536000, immutable" : "public, max-age=300",
      "x-content-type-options": "nosniff",
      // Module scripts are fetched with CORS: a widget in a sandboxed iframe or a file:// page
      // has an opaque origin and needs this to run its scripts. The files are public.
      "access-control-allow-origin": "*",
    };
    if (COMPRESSIBLE.has(ext)) {
      headers.vary = "accept-encoding";
      if (acceptsGzip(c.req.header("accept-encoding")) && body.byteLength > 256) {
        const mtime = (await Deno.stat(file)).mtime?.getTime() ?? 0;
        let hit = gzipCache.get(rel);
        if (hit?.mtime !== mtime) gzipCache.set(rel, hit = { mtime, body: await gzip(body) });
        headers["content-encoding"] = "gzip";
        body = hit.body;
      }
    }
    return new Response(body, { headers });
  };
}
