import assert, { deepStrictEqual as assertEquals } from "node:assert/strict";
import { chromium } from "playwright-core";
import { findBrowser, launchProblem, NPM_CHROMIUM, playwrightCandidates, unpacked, withLock } from "./browser.ts";

const SCRIPT = new URL("./browser.ts", import.meta.url).pathname;

/** Writes an executable shell script at `path`. */
async function script(path: string, body: string) {
  await Deno.mkdir(path.replace(/\/[^/]+$/, ""), { recursive: true });
  await Deno.writeTextFile(path, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  await Deno.chmod(path, 0o755);
}

Deno.test("CHROME_PATH wins; one that is not an executable is passed over", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await script(`${dir}/my-chrome`, "exit 0");
    const env = { CHROME_PATH: `${dir}/my-chrome`, HOME: dir, PATH: "" };
    assertEquals(findBrowser(env), { path: `${dir}/my-chrome`, env: {}, source: "CHROME_PATH" });
    await Deno.writeTextFile(`${dir}/not-exec`, "");
    const said: string[] = [];
    assert(findBrowser({ ...env, CHROME_PATH: `${dir}/not-exec` }, (l) => said.push(l))?.path !== `${dir}/not-exec`);
    assertEquals(said, [`CHROME_PATH=${dir}/not-exec is not an executable file; looking for a browser elsewhere.`]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("Playwright's cache: the newest revision, a full Chromium before a headless shell", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await script(`${dir}/chromium-1100/chrome-linux/chrome`, "exit 0");
    await script(`${dir}/chromium-1200/chrome-linux64/chrome`, "exit 0");
    await script(`${dir}/chromium_headless_shell-1200/chrome-headless-shell-linux64/chrome-headless-shell`, "exit 0");
    await Deno.mkdir(`${dir}/firefox-1500`);
    const found = playwrightCandidates({ PLAYWRIGHT_BROWSERS_PATH: dir }).filter((p) => {
      try {
        return Deno.statSync(p).isFile;
      } catch {
        return false;
      }
    });
    assertEquals(found.map((p) => p.slice(dir.length + 1)), [
      "chromium-1200/chrome-linux64/chrome",
      "chromium_headless_shell-1200/chrome-headless-shell-linux64/chrome-headless-shell",
      "chromium-1100/chrome-linux/chrome",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a browser that cannot start is one sentence, not a launch log", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const libs = `${dir}/chrome-libs`;
    await script(
      libs,
      `echo "${libs}: error while loading shared libraries: libnss3.so: cannot open shared object file: No such file or directory" >&2; exit 127`,
    );
    const quiet = `${dir}/chrome-quiet`;
    await script(quiet, "exit 3");
    for (
      const [path, reason] of [
        [libs, `${libs}: error while loading shared libraries: libnss3.so: cannot open shared object file`],
        [quiet, "it exited with status 3"],
      ]
    ) {
      const err = await chromium.launch({ executablePath: path, timeout: 20_000 }).then(
        async (b) => (await b.close(), null),
        (e) => e,
      );
      assert(err, `${path} should not start`);
      const sentence = launchProblem(path, err);
      assert(
        sentence.startsWith(`The browser at ${path} could not start (${reason}`),
        `${sentence}\n(from: ${String(err).slice(0, 300)}…)`,
      );
      assert(sentence.endsWith("; set CHROME_PATH to a working Chrome or Chromium."), sentence);
      assert(!sentence.includes("\n") && !sentence.includes("--no-sandbox"), sentence);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the lock lets one holder in at a time and takes over a lock whose holder died", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const order: string[] = [];
    const gate = Promise.withResolvers<void>();
    const firstIn = Promise.withResolvers<void>();
    const first = withLock(dir, async () => {
      order.push("first in");
      firstIn.resolve();
      await gate.promise;
      order.push("first out");
    });
    // The second asks only once the first holds the lock (both would otherwise race for it).
    await firstIn.promise;
    const second = withLock(dir, () => {
      order.push("second in");
      return Promise.resolve();
    });
    await new Promise((r) => setTimeout(r, 500));
    assertEquals(order, ["first in"]);
    gate.resolve();
    await Promise.all([first, second]);
    assertEquals(order, ["first in", "first out", "second in"]);
    // A lock left by a dead process, untouched for two minutes.
    await Deno.writeTextFile(`${dir}/obtain.lock`, "999999");
    const old = new Date(Date.now() - 120_000);
    await Deno.utime(`${dir}/obtain.lock`, old, old);
    assertEquals(await withLock(dir, () => Promise.resolve("taken over")), "taken over");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name: "obtains Chromium from the npm package once for parallel callers, and it renders a page",
  // The package's Chromium is built for Linux x64.
  ignore: !(Deno.build.os === "linux" && Deno.build.arch === "x86_64"),
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "chromium-cache-" });
    try {
      const ensure = () =>
        new Deno.Command(Deno.execPath(), {
          args: ["run", "-A", SCRIPT, "ensure", "--via", "npm", "--cache", dir],
          stdout: "piped",
          stderr: "piped",
        }).output();
      const runs = await Promise.all([ensure(), ensure()]);
      const said = runs.map((r) => new TextDecoder().decode(r.stderr)).join("");
      assertEquals(runs.map((r) => r.code), [0, 0], said);
      const installing = said.split("\n").filter((l) => l.startsWith("Installing Chromium"));
      assertEquals(installing, [
        `Installing Chromium from the npm package ${NPM_CHROMIUM.name}@${NPM_CHROMIUM.version} into ${dir} (one time)…`,
      ]);
      const got = unpacked(dir);
      assert(got, `no Chromium unpacked in ${dir}`);
      assertEquals((said.match(/Browser tests drive (.+) \(/g) ?? []).length, 2, said);
      const browser = await chromium.launch({
        executablePath: got.path,
        env: { ...Deno.env.toObject(), ...got.env },
        args: ["--no-sandbox", "--disable-gpu"],
      });
      try {
        const page = await browser.newPage({ viewport: { width: 320, height: 120 } });
        await page.setContent('<p id="t" style="font:20px sans-serif">00:05:00</p>');
        const width = await page.locator("#t").evaluate((el) => el.getBoundingClientRect().width);
        assert(width > 40, `text rendered ${width}px wide`);
        assert((await browser.version()).startsWith(NPM_CHROMIUM.version.split(".")[0]));
      } finally {
        await browser.close();
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
