import assert, { deepStrictEqual as assertEquals } from "node:assert/strict";

const ROOT = new URL("../", import.meta.url);

/** A small project beside the real one: one island, a boot module, this repo's deno.json and build script. */
async function project(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "build-watch-" });
  for (const d of ["islands", "components", "lib", "scripts"]) await Deno.mkdir(`${dir}/${d}`);
  await Deno.copyFile(new URL("deno.json", ROOT), `${dir}/deno.json`);
  await Deno.copyFile(new URL("deno.lock", ROOT), `${dir}/deno.lock`).catch(() => {});
  await Deno.copyFile(new URL("scripts/build.ts", ROOT), `${dir}/scripts/build.ts`);
  await Deno.writeTextFile(`${dir}/components/label.ts`, 'export const LABEL = "first-label";\n');
  await Deno.writeTextFile(
    `${dir}/islands/Hello.tsx`,
    'import { LABEL } from "../components/label.ts";\nexport default function Hello() {\n  return <p>{LABEL}</p>;\n}\n',
  );
  await Deno.writeTextFile(`${dir}/lib/boot.ts`, 'document.documentElement.dataset.booted = "1";\n');
  return dir;
}

/** Reads lines from a stream until one matches; fails with what was seen after `ms`. */
async function until(lines: AsyncIterator<string>, seen: string[], match: RegExp, ms = 60_000): Promise<string> {
  const deadline = Date.now() + ms;
  for (;;) {
    const left = deadline - Date.now();
    assert(left > 0, `no line matching ${match} in ${ms} ms; saw:\n${seen.join("\n")}`);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const next = await Promise.race([
      lines.next(),
      new Promise<null>((r) => timer = setTimeout(() => r(null), left)),
    ]).finally(() => clearTimeout(timer));
    if (next === null) continue;
    assert(!next.done, `the watcher ended; saw:\n${seen.join("\n")}`);
    seen.push(next.value);
    if (match.test(next.value)) return next.value;
  }
}

async function* splitLines(stream: ReadableStream<Uint8Array<ArrayBuffer>>) {
  let buf = "";
  for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
    buf += chunk;
    let i;
    while ((i = buf.indexOf("\n")) >= 0) {
      yield buf.slice(0, i);
      buf = buf.slice(i + 1);
    }
  }
}

Deno.test("build.ts --watch (deno task dev) rebuilds the bundles when a component an island uses changes", async () => {
  const dir = await project();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-read", "--allow-write", "--allow-run", "--allow-env", "scripts/build.ts", "--watch"],
    cwd: dir,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const lines = splitLines(child.stdout)[Symbol.asyncIterator]();
  const seen: string[] = [];
  const island = () => Deno.readTextFile(`${dir}/static/build/islands/Hello.js`);
  try {
    const first = await until(lines, seen, /^rebuilt static\/build \(version (\w+)\)/);
    await until(lines, seen, /^watching islands\/, components\/, lib\/ for changes/);
    assert((await island()).includes("first-label"));
    await Deno.writeTextFile(`${dir}/components/label.ts`, 'export const LABEL = "second-label";\n');
    const second = await until(lines, seen, /^rebuilt static\/build \(version (\w+)\)/);
    assert(second !== first, `${first} → ${second}`);
    assert((await island()).includes("second-label"), "the new text is in the bundle");
    const manifest = JSON.parse(await Deno.readTextFile(`${dir}/static/build/manifest.json`));
    assertEquals(second.includes(manifest.version), true);
    // A broken edit is reported and the last good bundles stay.
    await Deno.writeTextFile(`${dir}/islands/Hello.tsx`, "export default function Hello( {\n");
    await until(lines, seen, /^build failed: /);
    assert((await island()).includes("second-label"));
  } finally {
    child.kill("SIGTERM");
    await child.status;
    await lines.return?.();
    await child.stderr.cancel();
    await Deno.remove(dir, { recursive: true });
  }
});
