/**
 * Builds the island bundles: `deno bundle --platform browser --code-splitting --minify`
 * over islands/*.tsx and lib/boot.ts into static/build/ (one file per island, shared chunks),
 * then a single-file bundle of each SOLO island with its hydration (static/build/solo/islands/,
 * for a page where that island is alone: the widgets' embeds), then writes
 * static/build/manifest.json (see lib/islands.tsx).
 *
 *   deno task build              always builds
 *   deno run … build.ts --if-stale   builds only when an input changed since the last build
 *   deno run … build.ts --watch      builds when stale, then again whenever an input changes (deno task dev)
 *
 * Concurrent builds (parallel test files) are serialised by a lock directory; the output is
 * written to a fresh folder and swapped in, so a running server never sees half a build.
 */
import type { Manifest } from "../lib/islands.tsx";

const ROOT = new URL("../", import.meta.url);
const at = (rel: string) => new URL(rel, ROOT);
const OUT = "static/build";
const BOOT = "lib/boot.ts";
/**
 * Islands that also get a bundle of their own with their hydration (no boot module, no shared
 * chunks), for pages where that island is alone: the widgets and the stage, loaded by every embed.
 */
const SOLO = ["Widget", "WidgetPlain", "WidgetLive", "Stage"];
/** What the bundles are made of: island code, what it imports, and the dependency pins. */
const INPUT_DIRS = ["islands", "components", "lib"];
const INPUT_FILES = ["deno.json", "deno.lock", "scripts/build.ts"];

async function sha256(data: Uint8Array | string): Promise<string> {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  const digest = await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

async function walk(dir: URL, prefix: string, out: string[]) {
  let entries: Deno.DirEntry[];
  try {
    entries = Array.from(Deno.readDirSync(dir));
  } catch {
    return;
  }
  for (const e of entries) {
    const rel = `${prefix}${e.name}`;
    if (e.isDirectory) await walk(new URL(`${e.name}/`, dir), `${rel}/`, out);
    else if (/\.(ts|tsx)$/.test(e.name) && !/_test\.tsx?$/.test(e.name)) out.push(rel);
  }
}

/** A hash over the build's inputs: names and contents. */
export async function inputsHash(): Promise<string> {
  const files: string[] = [];
  for (const d of INPUT_DIRS) await walk(at(`${d}/`), `${d}/`, files);
  for (const f of INPUT_FILES) {
    try {
      Deno.statSync(at(f));
      files.push(f);
    } catch { /* optional */ }
  }
  files.sort();
  const parts: string[] = [];
  for (const f of files) parts.push(`${f}\0${await sha256(await Deno.readFile(at(f)))}`);
  return (await sha256(parts.join("\n"))).slice(0, 32);
}

/** The manifest of the current build, if it is complete. */
export function currentManifest(): Manifest | null {
  try {
    const m = JSON.parse(Deno.readTextFileSync(at(`${OUT}/manifest.json`))) as Manifest;
    for (const f of m.files) Deno.statSync(at(`${OUT}/${f}`));
    return m;
  } catch {
    return null;
  }
}

/** Whether the bundles are missing or older than their inputs. */
export async function isStale(): Promise<boolean> {
  const m = currentManifest();
  return !m || m.inputs !== await inputsHash();
}

async function listFiles(dir: URL, prefix = ""): Promise<string[]> {
  const out: string[] = [];
  for (const e of Deno.readDirSync(dir)) {
    if (e.isDirectory) out.push(...await listFiles(new URL(`${e.name}/`, dir), `${prefix}${e.name}/`));
    else out.push(`${prefix}${e.name}`);
  }
  return out.sort();
}

async function withLock<T>(fn: () => Promise<T>): Promise<T> {
  const lock = at("static/.build-lock");
  Deno.mkdirSync(at("static/"), { recursive: true });
  const started = Date.now();
  for (;;) {
    try {
      Deno.mkdirSync(lock, { recursive: false });
      break;
    } catch (e) {
      if (!(e instanceof Deno.errors.AlreadyExists)) throw e;
      // A lock older than two minutes belongs to a build that died.
      const age = Date.now() - (Deno.statSync(lock).mtime?.getTime() ?? Date.now());
      if (age > 120_000) Deno.removeSync(lock, { recursive: true });
      else if (Date.now() - started > 180_000) throw new Error("timed out waiting for another build");
      else await new Promise((r) => setTimeout(r, 100));
    }
  }
  try {
    return await fn();
  } finally {
    Deno.removeSync(lock, { recursive: true });
  }
}

export interface BuildResult {
  built: boolean;
  manifest: Manifest;
  /** Output file → [bytes, gzipped bytes]. */
  sizes: Record<string, [number, number]>;
}

async function gzipSize(data: Uint8Array): Promise<number> {
  const stream = new Blob([data as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream("gzip"));
  return (await new Response(stream).arrayBuffer()).byteLength;
}

/** Builds the bundles (or, with `ifStale`, only when an input changed). */
export async function build(opts: { ifStale?: boolean } = {}): Promise<BuildResult> {
  return await withLock(async () => {
    const inputs = await inputsHash();
    const existing = currentManifest();
    if (opts.ifStale && existing && existing.inputs === inputs) {
      return { built: false, manifest: existing, sizes: {} };
    }
    const islands = Array.from(Deno.readDirSync(at("islands/")))
      .filter((e) => e.isFile && /^[A-Z][A-Za-z0-9]*\.tsx$/.test(e.name))
      .map((e) => `islands/${e.name}`)
      .sort();
    const tmp = `static/.build-${crypto.randomUUID().slice(0, 8)}`;
    const cmd = new Deno.Command(Deno.execPath(), {
      args: ["bundle", "--platform", "browser", "--code-splitting", "--minify", "--outdir", tmp, ...islands, BOOT],
      cwd: ROOT,
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    });
    const res = await cmd.output();
    if (!res.success) {
      await Deno.remove(at(tmp), { recursive: true }).catch(() => {});
      throw new Error(`deno bundle failed:\n${new TextDecoder().decode(res.stderr)}`);
    }
    const solo: Record<string, string> = {};
    // Beside the output folder, under the name git, fmt and lint already leave alone.
    const entries = `static/.build-solo-${crypto.randomUUID().slice(0, 8)}`;
    try {
      for (const name of SOLO.filter((n) => islands.includes(`islands/${n}.tsx`))) {
        // The island and the hydration of its roots, as lib/boot.ts hydrates them.
        const entry = `${entries}/${name}.ts`;
        await Deno.mkdir(at(entries), { recursive: true });
        await Deno.writeTextFile(
          at(entry),
          `import { h, hydrate } from "preact";\nimport Island from "../../islands/${name}.tsx";\n` +
            `for (const root of document.querySelectorAll<HTMLElement>('[data-island="${name}"]')) {\n` +
            `  hydrate(h(Island, JSON.parse(root.dataset.props ?? "{}")), root);\n}\n`,
        );
        // Under solo/islands/ so that its URL names the island as the split one does.
        const file = `solo/islands/${name}.js`;
        const one = await new Deno.Command(Deno.execPath(), {
          args: ["bundle", "--platform", "browser", "--minify", "-o", `${tmp}/${file}`, entry],
          cwd: ROOT,
          stdout: "piped",
          stderr: "piped",
          env: { NO_COLOR: "1" },
        }).output();
        if (!one.success) {
          await Deno.remove(at(tmp), { recursive: true }).catch(() => {});
          throw new Error(`deno bundle of the solo ${name} failed:\n${new TextDecoder().decode(one.stderr)}`);
        }
        solo[name] = file;
      }
    } finally {
      await Deno.remove(at(entries), { recursive: true }).catch(() => {});
    }
    const files = await listFiles(at(`${tmp}/`));
    const sizes: Record<string, [number, number]> = {};
    const hashes: string[] = [];
    for (const f of files) {
      const data = await Deno.readFile(at(`${tmp}/${f}`));
      sizes[f] = [data.byteLength, await gzipSize(data)];
      hashes.push(`${f}\0${await sha256(data)}`);
    }
    const manifest: Manifest = {
      version: (await sha256(hashes.join("\n"))).slice(0, 10),
      inputs,
      islands: Object.fromEntries(islands.map((f) => [f.slice(8, -4), f.replace(/\.tsx$/, ".js")])),
      boot: BOOT.replace(/\.ts$/, ".js"),
      solo,
      files,
    };
    for (const f of [manifest.boot, ...Object.values(manifest.islands), ...Object.values(solo)]) {
      if (!files.includes(f)) throw new Error(`deno bundle did not write ${f}; got ${files.join(", ")}`);
    }
    await Deno.writeTextFile(at(`${tmp}/manifest.json`), JSON.stringify(manifest, null, 2) + "\n");
    await Deno.remove(at(OUT), { recursive: true }).catch(() => {});
    await Deno.rename(at(tmp), at(OUT));
    return { built: true, manifest, sizes };
  });
}

/**
 * Rebuilds whenever an input changes (islands/, components/, lib/, the dependency pins), until
 * the process ends; pages pick up the new manifest on their next request. A failed build is
 * reported and the previous bundles stay.
 */
export async function watch(say: (line: string) => void, opts: { quietMs?: number } = {}): Promise<never> {
  const once = async () => {
    const started = performance.now();
    try {
      const { built, manifest } = await build({ ifStale: true });
      if (built) {
        say(`rebuilt static/build (version ${manifest.version}) in ${Math.round(performance.now() - started)} ms`);
      }
    } catch (e) {
      say(`build failed: ${e instanceof Error ? e.message : e}`);
    }
  };
  await once();
  const paths = [...INPUT_DIRS, ...INPUT_FILES].map((p) => at(p).pathname).filter((p) => {
    try {
      Deno.statSync(p);
      return true;
    } catch {
      return false;
    }
  });
  // The watcher exists before we say so: a change made right after the line is seen.
  const watcher = Deno.watchFs(paths);
  say(`watching ${INPUT_DIRS.join("/, ")}/ for changes to rebuild static/build`);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running = Promise.resolve();
  for await (const event of watcher) {
    if (!event.paths.some((p) => /\.(ts|tsx|json|lock)$/.test(p))) continue;
    // One rebuild for a burst of changes (an editor's save writes several times).
    clearTimeout(timer);
    timer = setTimeout(() => running = running.then(once), opts.quietMs ?? 150);
  }
  throw new Error("the file watcher stopped");
}

if (import.meta.main) {
  // deno-lint-ignore no-console
  const say = (s: string) => console.log(s);
  if (Deno.args.includes("--watch")) await watch(say);
  const ifStale = Deno.args.includes("--if-stale");
  const { built, manifest, sizes } = await build({ ifStale });
  if (!built) {
    say(`static/build is up to date (version ${manifest.version})`);
  } else {
    say(`built static/build (version ${manifest.version})`);
    for (const [f, [raw, gz]] of Object.entries(sizes)) {
      say(`  ${f.padEnd(28)} ${String(raw).padStart(7)} B  ${String(gz).padStart(6)} B gzipped`);
    }
  }
}
