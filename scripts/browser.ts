/**
 * The Chromium the browser tests drive: found on this machine, or obtained once.
 *
 *   deno run -A scripts/browser.ts ensure   finds a browser or obtains one; says which (stderr)
 *   deno run -A scripts/browser.ts find     prints the path of a browser found here (status 1: none)
 *   … ensure --via npm|apt [--cache DIR]    obtains one that way even when a browser is found
 *
 * Looked for, in order: `CHROME_PATH`; the usual places of Chromium and Chrome on Linux and
 * macOS (and the same names on the PATH); Playwright's browser cache; a Chromium this script
 * unpacked earlier. Obtained from a registry: Debian's `chromium` with apt-get (when apt-get
 * exists and we are root), else the Chromium shipped inside the npm package @sparticuz/chromium
 * (Linux x64), unpacked under `CHROMIUM_CACHE` (default ~/.cache/timer-service). Parallel test
 * processes obtain it once: a lock file in the cache folder serialises them.
 */
import { stripVTControlCharacters } from "node:util";
import { brotliDecompressSync } from "node:zlib";

/** A browser to launch: its executable and any environment it needs. */
export interface Browser {
  path: string;
  /** Extra environment for the browser process (fonts of an unpacked Chromium). */
  env: Record<string, string>;
  /** Where it was found or how it was obtained, for messages. */
  source: string;
}

/** No browser could be found or obtained; the message is one sentence saying what to do. */
export class BrowserError extends Error {
  override name = "BrowserError";
}

/** The npm package whose tarball carries a Chromium binary, and the version pinned here. */
export const NPM_CHROMIUM = { name: "@sparticuz/chromium", version: "153.0.0" };

type Env = Record<string, string | undefined>;
const HOME = () => Deno.env.get("HOME") ?? "";
// deno-lint-ignore no-console
const tell = (line: string) => console.error(line);

function isExecutable(path: string): boolean {
  try {
    const st = Deno.statSync(path);
    return st.isFile && (Deno.build.os === "windows" || ((st.mode ?? 0o111) & 0o111) !== 0);
  } catch {
    return false;
  }
}

/** Candidate executables in the usual system places, most specific first. */
export function systemCandidates(env: Env = Deno.env.toObject()): string[] {
  const names = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"];
  const out: string[] = [];
  if (Deno.build.os === "darwin") {
    for (const root of ["/Applications", `${env.HOME ?? HOME()}/Applications`]) {
      out.push(
        `${root}/Google Chrome.app/Contents/MacOS/Google Chrome`,
        `${root}/Chromium.app/Contents/MacOS/Chromium`,
        `${root}/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing`,
        `${root}/Google Chrome Canary.app/Contents/MacOS/Google Chrome Canary`,
      );
    }
  }
  for (const dir of ["/usr/bin", "/usr/local/bin", "/snap/bin"]) for (const n of names) out.push(`${dir}/${n}`);
  out.push("/opt/google/chrome/chrome");
  for (const dir of (env.PATH ?? "").split(":").filter(Boolean)) for (const n of names) out.push(`${dir}/${n}`);
  return [...new Set(out)];
}

/** The newest browser in Playwright's cache (`PLAYWRIGHT_BROWSERS_PATH` or its default), if any. */
export function playwrightCandidates(env: Env = Deno.env.toObject()): string[] {
  const home = env.HOME ?? HOME();
  const root = env.PLAYWRIGHT_BROWSERS_PATH && env.PLAYWRIGHT_BROWSERS_PATH !== "0"
    ? env.PLAYWRIGHT_BROWSERS_PATH
    : Deno.build.os === "darwin"
    ? `${home}/Library/Caches/ms-playwright`
    : `${env.XDG_CACHE_HOME || `${home}/.cache`}/ms-playwright`;
  let dirs: string[] = [];
  try {
    dirs = Array.from(Deno.readDirSync(root)).filter((e) => /^chromium(_headless_shell)?-\d+$/.test(e.name))
      .map((e) => e.name);
  } catch {
    return [];
  }
  // Newest revision first; a full Chromium before the headless shell of the same revision.
  dirs.sort((a, b) => Number(b.split("-")[1]) - Number(a.split("-")[1]) || a.length - b.length);
  const inside = [
    "chrome-linux64/chrome",
    "chrome-linux/chrome",
    "chrome-headless-shell-linux64/chrome-headless-shell",
    "chrome-linux/headless_shell",
    "chrome-mac-arm64/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing",
    "chrome-mac-x64/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing",
    "chrome-mac/Chromium.app/Contents/MacOS/Chromium",
    "chrome-headless-shell-mac-arm64/chrome-headless-shell",
    "chrome-headless-shell-mac-x64/chrome-headless-shell",
    "chrome-mac/headless_shell",
  ];
  return dirs.flatMap((d) => inside.map((p) => `${root}/${d}/${p}`));
}

/** The folder an npm-obtained Chromium is unpacked into. */
export function cacheDir(env: Env = Deno.env.toObject()): string {
  if (env.CHROMIUM_CACHE) return env.CHROMIUM_CACHE;
  const home = env.HOME ?? HOME();
  if (Deno.build.os === "darwin") return `${home}/Library/Caches/timer-service`;
  return `${env.XDG_CACHE_HOME || `${home}/.cache`}/timer-service`;
}

/** The Chromium unpacked from the npm package into `dir`, if it is complete. */
export function unpacked(dir: string): Browser | null {
  const home = `${dir}/chromium-${NPM_CHROMIUM.version}`;
  const path = `${home}/chromium`;
  // The fonts config is written last: its presence means the unpacking finished.
  if (!isExecutable(path) || !exists(`${home}/fonts.conf`)) return null;
  return {
    path,
    env: { FONTCONFIG_FILE: `${home}/fonts.conf` },
    source: `${NPM_CHROMIUM.name}@${NPM_CHROMIUM.version}`,
  };
}

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

const warned = new Set<string>();

/** A browser on this machine, without obtaining anything; null when there is none. `say` hears warnings. */
export function findBrowser(env: Env = Deno.env.toObject(), say: (line: string) => void = tell): Browser | null {
  if (env.CHROME_PATH) {
    if (isExecutable(env.CHROME_PATH)) return { path: env.CHROME_PATH, env: {}, source: "CHROME_PATH" };
    if (!warned.has(env.CHROME_PATH)) {
      warned.add(env.CHROME_PATH);
      say(`CHROME_PATH=${env.CHROME_PATH} is not an executable file; looking for a browser elsewhere.`);
    }
  }
  for (const p of systemCandidates(env)) if (isExecutable(p)) return { path: p, env: {}, source: "system" };
  for (const p of playwrightCandidates(env)) if (isExecutable(p)) return { path: p, env: {}, source: "Playwright" };
  return unpacked(cacheDir(env));
}

async function run(cmd: string, args: string[], env: Record<string, string> = {}) {
  try {
    const out = await new Deno.Command(cmd, { args, env, stdin: "null", stdout: "piped", stderr: "piped" }).output();
    const text = new TextDecoder().decode(out.stderr).trim() || new TextDecoder().decode(out.stdout).trim();
    return { ok: out.success, last: text.split("\n").filter(Boolean).at(-1) ?? `exit status ${out.code}` };
  } catch (e) {
    return { ok: false, last: e instanceof Deno.errors.NotFound ? `${cmd} is not installed` : String(e) };
  }
}

/** Whether apt-get can install packages here (it exists and we are root). */
export function aptUsable(): boolean {
  return Deno.build.os === "linux" && isExecutable("/usr/bin/apt-get") && isRoot();
}

function isRoot(): boolean {
  try {
    return Deno.uid() === 0;
  } catch {
    // Without --allow-sys: root's home is /root.
    return Deno.env.get("HOME") === "/root" || Deno.env.get("USER") === "root";
  }
}

/** Installs Debian's chromium with apt-get. */
export async function obtainWithApt(): Promise<Browser> {
  tell("Installing Chromium with apt-get (one time)…");
  const env = { DEBIAN_FRONTEND: "noninteractive" };
  const update = await run("apt-get", ["update", "-qq"], env);
  if (!update.ok) throw new BrowserError(`apt-get update failed (${update.last}).`);
  const install = await run("apt-get", ["install", "-y", "-qq", "chromium"], env);
  if (!install.ok) throw new BrowserError(`apt-get could not install chromium (${install.last}).`);
  for (const p of ["/usr/bin/chromium", "/usr/bin/chromium-browser"]) {
    if (isExecutable(p)) return { path: p, env: {}, source: "apt-get" };
  }
  throw new BrowserError("apt-get installed chromium, but /usr/bin/chromium is missing.");
}

/** Whether the npm package's Chromium runs here (it is built for Linux x64). */
export function npmUsable(): boolean {
  return Deno.build.os === "linux" && Deno.build.arch === "x86_64";
}

/** Fetches @sparticuz/chromium with npm and unpacks its Chromium and fonts into `dir`. */
export async function obtainFromNpm(dir = cacheDir()): Promise<Browser> {
  const found = unpacked(dir);
  if (found) return found;
  const spec = `${NPM_CHROMIUM.name}@${NPM_CHROMIUM.version}`;
  tell(`Installing Chromium from the npm package ${spec} into ${dir} (one time)…`);
  const home = `${dir}/chromium-${NPM_CHROMIUM.version}`;
  const work = `${dir}/.npm-${crypto.randomUUID().slice(0, 8)}`;
  await Deno.mkdir(work, { recursive: true });
  try {
    const npm = Deno.build.os === "windows" ? "npm.cmd" : "npm";
    const res = await run(npm, [
      "install",
      "--prefix",
      work,
      "--no-save",
      "--no-package-lock",
      "--no-audit",
      "--no-fund",
      "--ignore-scripts",
      "--loglevel=error",
      spec,
    ]);
    if (!res.ok) throw new BrowserError(`npm could not install ${spec} (${res.last}).`);
    const bin = `${work}/node_modules/${NPM_CHROMIUM.name}/bin`;
    await Deno.remove(home, { recursive: true }).catch(() => {});
    await Deno.mkdir(home, { recursive: true });
    await Deno.writeFile(`${home}/fonts.tar`, brotliDecompressSync(await Deno.readFile(`${bin}/fonts.tar.br`)));
    const tar = await run("tar", ["-xf", `${home}/fonts.tar`, "--no-same-owner", "-C", home, "fonts"]);
    if (!tar.ok) throw new BrowserError(`could not unpack the fonts of ${spec} (${tar.last}).`);
    await Deno.remove(`${home}/fonts.tar`);
    await Deno.writeFile(`${home}/chromium`, brotliDecompressSync(await Deno.readFile(`${bin}/chromium.br`)), {
      mode: 0o755,
    });
    await Deno.chmod(`${home}/chromium`, 0o755);
    // The package's own fonts.conf names Lambda's folders: ours adds its fonts to the system's.
    await Deno.writeTextFile(
      `${home}/fonts.conf`,
      `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n` +
        `  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>\n  <dir>${home}/fonts</dir>\n` +
        `  <cachedir>${home}/fonts-cache</cachedir>\n</fontconfig>\n`,
    );
  } finally {
    await Deno.remove(work, { recursive: true }).catch(() => {});
  }
  const got = unpacked(dir);
  if (!got) throw new BrowserError(`unpacking ${spec} into ${home} left no Chromium there.`);
  return got;
}

/**
 * Runs `fn` holding a lock file in `dir`, so that parallel test processes obtain a browser once.
 * The holder touches the lock every few seconds; one untouched for 60 s belonged to a process
 * that died.
 */
export async function withLock<T>(dir: string, fn: () => Promise<T>): Promise<T> {
  await Deno.mkdir(dir, { recursive: true });
  const lock = `${dir}/obtain.lock`;
  for (;;) {
    try {
      Deno.writeTextFileSync(lock, String(Deno.pid), { createNew: true });
      break;
    } catch (e) {
      if (!(e instanceof Deno.errors.AlreadyExists)) throw e;
      let age = 0;
      try {
        age = Date.now() - (Deno.statSync(lock).mtime?.getTime() ?? Date.now());
      } catch { /* released meanwhile */ }
      if (age > 60_000) await Deno.remove(lock).catch(() => {});
      else await new Promise((r) => setTimeout(r, 200));
    }
  }
  const beat = setInterval(() => Deno.utime(lock, new Date(), new Date()).catch(() => {}), 5_000);
  try {
    return await fn();
  } finally {
    clearInterval(beat);
    await Deno.remove(lock).catch(() => {});
  }
}

/** The failure an earlier attempt recorded, if any. */
function readFailure(path: string): { pid: number; at: number; sentence: string } | null {
  try {
    return JSON.parse(Deno.readTextFileSync(path));
  } catch {
    return null;
  }
}

/**
 * A browser for the tests: one found here, else one obtained (apt-get as root, else the npm
 * package), once however many processes ask at the same time. Throws BrowserError.
 */
export async function ensureBrowser(
  opts: { via?: "apt" | "npm"; cache?: string; env?: Env } = {},
): Promise<Browser> {
  const env = opts.env ?? Deno.env.toObject();
  const dir = opts.cache ?? cacheDir(env);
  if (!opts.via) {
    const found = findBrowser(env);
    if (found) return found;
  }
  const asked = Date.now();
  const failed = `${dir}/obtain.failed`;
  return await withLock(dir, async () => {
    if (!opts.via) {
      // Another process may have obtained one while this one waited for the lock…
      const found = findBrowser(env);
      if (found) return found;
      // …or failed to: its answer holds for the same run (deno test runs files as workers of one
      // process) and for anyone who was already waiting, so a test file never tries twice.
      const earlier = readFailure(failed);
      if (earlier && (earlier.pid === Deno.pid || earlier.at >= asked)) throw new BrowserError(earlier.sentence);
    }
    const problems: string[] = [];
    if (opts.via !== "npm" && (opts.via === "apt" || aptUsable())) {
      try {
        return await obtainWithApt();
      } catch (e) {
        if (!(e instanceof BrowserError) || opts.via === "apt") throw e;
        problems.push(e.message.replace(/\.$/, ""));
        tell(`${e.message} Trying the npm package instead.`);
      }
    }
    if (opts.via === "npm" || npmUsable()) {
      try {
        return await obtainFromNpm(dir);
      } catch (e) {
        if (!(e instanceof BrowserError)) throw e;
        problems.push(e.message.replace(/\.$/, ""));
      }
    }
    const why = problems.length ? ` (${problems.join("; ")})` : "";
    const sentence = `No Chrome or Chromium was found and none could be installed here${why}: ` +
      "install one, or set CHROME_PATH to its executable.";
    await Deno.writeTextFile(failed, JSON.stringify({ pid: Deno.pid, at: Date.now(), sentence })).catch(() => {});
    throw new BrowserError(sentence);
  });
}

/**
 * One sentence for a browser that would not start, from Playwright's launch error (which
 * carries the whole launch log): the browser's own complaint, else how it ended.
 */
export function launchProblem(path: string, error: unknown): string {
  const text = stripVTControlCharacters(String(error instanceof Error ? error.message : error));
  const said = [...text.matchAll(/^\s*(?:- )?\[pid=\d+\]\[err\] (.+)$/gm)].map((m) => m[1].trim());
  const telling = said.find((l) =>
    /shared libraries|cannot open|not found|no such file|permission denied|fatal|error|missing/i.test(l)
  );
  const exit = /process did exit: exitCode=(\d+), signal=(\w+)/.exec(text);
  const timeout = /Timeout (\d+)ms exceeded/.exec(text);
  const reason = telling?.replace(/^\[[\d/.:]+:\w+:[^\]]*\]\s*/, "") ??
    (exit
      ? (exit[2] !== "null" ? `it was killed by ${exit[2]}` : `it exited with status ${exit[1]}`)
      : timeout
      ? `it did not answer within ${Number(timeout[1]) / 1000} s`
      : text.split("\n")[0].replace(/^browserType\.launch: /, ""));
  return `The browser at ${path} could not start (${reason.replace(/\.$/, "")}); ` +
    "set CHROME_PATH to a working Chrome or Chromium.";
}

if (import.meta.main) {
  const [cmd = "ensure", ...rest] = Deno.args;
  const opt = (name: string) => {
    const i = rest.indexOf(name);
    return i >= 0 ? rest[i + 1] : undefined;
  };
  const via = opt("--via");
  if (!["ensure", "find"].includes(cmd) || (via !== undefined && via !== "apt" && via !== "npm")) {
    tell("usage: deno run -A scripts/browser.ts ensure [--via apt|npm] [--cache DIR] | find");
    Deno.exit(2);
  }
  try {
    const b = cmd === "find"
      ? findBrowser()
      : await ensureBrowser({ via: via as "apt" | "npm" | undefined, cache: opt("--cache") });
    if (!b) {
      tell("No Chrome or Chromium found on this machine.");
      Deno.exit(1);
    }
    // deno-lint-ignore no-console
    if (cmd === "find") console.log(b.path);
    else tell(`Browser tests drive ${b.path} (${b.source}).`);
  } catch (e) {
    if (!(e instanceof BrowserError)) throw e;
    tell(e.message);
    Deno.exit(1);
  }
}
