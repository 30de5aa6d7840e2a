import assert, { deepStrictEqual as assertEquals } from "node:assert/strict";

const ROOT = new URL("../", import.meta.url);

/** Runs an npm command in the project with `env`; returns status, stdout and stderr. */
async function npm(args: string[], env: Record<string, string>) {
  const out = await new Deno.Command(Deno.build.os === "windows" ? "npm.cmd" : "npm", {
    args,
    cwd: ROOT,
    env: { NO_COLOR: "1", ...env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(60_000),
  }).output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
}

Deno.test("npm run -s keys -- create … --json prints only the JSON on stdout (pipeable to jq)", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const env = { KV_PATH: `${dir}/keys.sqlite3` };
    const r = await npm(["run", "-s", "keys", "--", "create", "--plan", "pro", "--name", "Acme", "--json"], env);
    assertEquals(r.code, 0, r.stderr);
    const created = JSON.parse(r.stdout);
    assertEquals(Object.keys(created).sort(), ["account_id", "api_key", "plan", "webhook_secret"]);
    assert(/^tsk_[0-9A-Za-z]{32}$/.test(created.api_key), "an API key");
    assertEquals(created.plan, "pro");
    // Deno's task banner is on stderr, never mixed into the JSON.
    assert(r.stderr.includes("Task keys"), r.stderr);
    // The generic form pipes just as well, and sees the same database.
    const listed = await npm(["run", "-s", "deno", "--", "task", "keys", "list", "--json"], env);
    assertEquals(listed.code, 0, listed.stderr);
    const accounts = JSON.parse(listed.stdout);
    assert(JSON.stringify(accounts).includes(created.account_id), listed.stdout);
    assert(!listed.stdout.includes(created.api_key), "list never shows a key");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the first run installs Deno from npm, saying so on stderr; stdout stays the command's own", async () => {
  const dir = await Deno.makeTempDir({ prefix: "fresh-clone-" });
  try {
    await Deno.mkdir(`${dir}/scripts`);
    await Deno.copyFile(new URL("package.json", ROOT), `${dir}/package.json`);
    await Deno.copyFile(new URL("scripts/deno.mjs", ROOT), `${dir}/scripts/deno.mjs`);
    // A PATH with node and npm but without this project's Deno.
    const path = (Deno.env.get("PATH") ?? "").split(":").filter((d) => !d.includes("node_modules")).join(":");
    const out = await new Deno.Command("node", {
      args: ["scripts/deno.mjs", "eval", "console.log(JSON.stringify({ ok: Deno.version.deno }))"],
      cwd: dir,
      env: { PATH: path, NO_COLOR: "1" },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(180_000),
    }).output();
    const stderr = new TextDecoder().decode(out.stderr);
    assertEquals(out.code, 0, stderr);
    const pinned = JSON.parse(await Deno.readTextFile(`${dir}/package.json`)).config.deno;
    assertEquals(new TextDecoder().decode(out.stdout), `{"ok":"${pinned}"}\n`);
    if (!stderr.includes(`Installing Deno ${pinned}`)) {
      // Only a Deno of the pinned version on the PATH spares the install.
      const v = await new Deno.Command("deno", { args: ["--version"], env: { PATH: path } }).output();
      assert(new TextDecoder().decode(v.stdout).includes(`deno ${pinned}`), stderr);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
