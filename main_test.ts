import { deepStrictEqual as assertEquals } from "node:assert/strict";

/** Runs main.ts with `env` until it exits; returns its status and output. */
async function runMain(env: Record<string, string>) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-net", "--allow-env", "--allow-read", "--allow-write", "main.ts"],
    cwd: new URL(".", import.meta.url),
    env: { KV_PATH: ":memory:", LOG_REQUESTS: "0", NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(30_000),
  }).output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
}

/** Starts main.ts with `env` and reads its first line (the "listening" one); `stop` ends it. */
async function startMain(env: Record<string, string>) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-net", "--allow-env", "--allow-read", "--allow-write", "main.ts"],
    cwd: new URL(".", import.meta.url),
    env: { KV_PATH: ":memory:", LOG_REQUESTS: "0", HOSTNAME: "127.0.0.1", ...env },
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  while (!seen.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    seen += value;
  }
  reader.releaseLock();
  const stop = async () => {
    child.kill("SIGTERM");
    await child.status;
    await child.stdout.cancel().catch(() => {});
  };
  try {
    return { line: JSON.parse(seen.split("\n")[0]), stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

Deno.test("a bad PORT stops the server with one line naming the variable and what is allowed", async () => {
  const r = await runMain({ PORT: "eighty" });
  assertEquals(r, {
    code: 1,
    stdout: "",
    stderr: 'Configuration error: PORT="eighty" is not allowed: use a whole number from 0 to 65535 (default 8000)\n',
  });
});

Deno.test("several bad variables: one line each, no stack trace", async () => {
  const r = await runMain({ PORT: "1", SIGNUP: "sometimes", SITE_URL: "example.com" });
  assertEquals(r.code, 1);
  assertEquals(r.stderr.trimEnd().split("\n").map((l) => l.replace(/=.*/, "")), [
    "Configuration error: SITE_URL",
    "Configuration error: SIGNUP",
  ]);
});

Deno.test("a busy port is named, with what to change", async () => {
  using busy = Deno.listen({ port: 0, hostname: "0.0.0.0" });
  const port = busy.addr.port;
  const r = await runMain({ PORT: String(port) });
  assertEquals(r, { code: 1, stdout: "", stderr: `port ${port} is already in use; set PORT to another port\n` });
});

Deno.test("HOSTNAME binds the server to that address", async () => {
  const probe = Deno.listen({ port: 0, hostname: "127.0.0.1" });
  const port = probe.addr.port;
  probe.close();
  const { line, stop } = await startMain({ PORT: String(port), HOSTNAME: "127.0.0.1" });
  try {
    assertEquals([line.msg, line.hostname, line.port], ["listening", "127.0.0.1", port]);
    const res = await fetch(`http://127.0.0.1:${port}/healthz`);
    await res.body?.cancel();
    assertEquals(res.status, 200);
  } finally {
    await stop();
  }
});

Deno.test({
  name: "connections that fill the process's file limit do not stop it: it listens again once they close",
  ignore: Deno.build.os === "windows", // `ulimit` is a POSIX shell's
  async fn() {
    const probe = Deno.listen({ port: 0, hostname: "127.0.0.1" });
    const port = probe.addr.port;
    probe.close();
    const deno = `'${Deno.execPath().replaceAll("'", "'\\''")}'`;
    const child = new Deno.Command("sh", {
      args: ["-c", `ulimit -n 256 && exec ${deno} run --allow-net --allow-env --allow-read --allow-write main.ts`],
      cwd: new URL(".", import.meta.url),
      env: { KV_PATH: ":memory:", LOG_REQUESTS: "0", PORT: String(port), HOSTNAME: "127.0.0.1", NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    let out = "";
    const reading = child.stdout.pipeThrough(new TextDecoderStream()).pipeTo(
      new WritableStream({ write: (t) => void (out += t) }),
    );
    const errors = new Response(child.stderr).text();
    const until = async (ok: () => boolean | Promise<boolean>, what: string) => {
      for (const end = Date.now() + 10_000; !(await ok());) {
        if (Date.now() > end) throw new Error(`timed out waiting for ${what}; stdout: ${out}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const health = () =>
      fetch(`http://127.0.0.1:${port}/healthz`).then(
        async (r) => (await r.body?.cancel(), r.status === 200),
        () => false,
      );
    try {
      await until(() => out.includes('"listening"'), "the server to listen");
      // Headers never finished: the server holds each connection (and its file) open.
      const held: Deno.Conn[] = [];
      for (let i = 0; i < 300; i++) {
        const conn = await Deno.connect({ hostname: "127.0.0.1", port }).catch(() => null);
        if (!conn) break;
        held.push(conn);
        await conn.write(new TextEncoder().encode("GET /healthz HTTP/1.1\r\nHost: x\r\n")).catch(() => {});
      }
      await until(() => out.includes('"HTTP server stopped"'), "the server to run out of files");
      for (const c of held) c.close();
      await until(health, "/healthz to answer again");
      // Told once it served again for 3 s (log lines are written in batches, so after the first answer).
      await until(() => out.includes('"HTTP server listening again"'), "the recovery line");
      assertEquals(out.split('"HTTP server stopped"').length - 1, 1, "the outage is told once");
    } finally {
      child.kill("SIGTERM");
      await child.status;
      await reading.catch(() => {});
      await errors;
    }
  },
});

Deno.test("PORT=0 without SITE_URL: the default SITE_URL names the port picked, in URLs the API returns", async () => {
  const { line, stop } = await startMain({ PORT: "0", SITE_URL: "" });
  try {
    assertEquals(line.msg, "listening");
    const site = `http://localhost:${line.port}`;
    assertEquals(line.site_url, site);
    const doc = await (await fetch(`http://127.0.0.1:${line.port}/api/v1/openapi.json`)).json();
    assertEquals(doc.servers[0].url, `${site}/api/v1`);
  } finally {
    await stop();
  }
});

Deno.test("shutdown goes on past a connection that never finishes (its scheduler and KV are still stopped)", async () => {
  const { start } = await import("./main.ts");
  const { loadConfig } = await import("./config.ts");
  const config = loadConfig({ PORT: "0", HOSTNAME: "127.0.0.1", KV_PATH: ":memory:", LOG_REQUESTS: "0" });
  const running = await start(config, { shutdownWaitMs: 300 });
  const port = (running.server.addr as Deno.NetAddr).port;
  // A request whose body never comes: its handler waits for it, and so would the server's shutdown.
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  await conn.write(new TextEncoder().encode(
    "POST /api/v1/timers HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{",
  ));
  await new Promise((r) => setTimeout(r, 200));
  const t0 = performance.now();
  const done = await Promise.race([
    running.shutdown().then(() => true),
    new Promise<boolean>((r) => setTimeout(() => r(false), 5000)),
  ]);
  assertEquals(done, true);
  assertEquals(performance.now() - t0 < 3000, true);
  const closed = await running.app.store.kv.get(["probe"]).then(() => false, () => true);
  assertEquals(closed, true, "the KV was closed after the wait");
  conn.close();
});

Deno.test("the minutely sweep's cron is registered when main.ts is loaded, before anything starts (Deno Deploy's rule)", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const probe = `${dir}/probe.ts`;
    await Deno.writeTextFile(
      probe,
      `const names: string[] = [];
Object.defineProperty(Deno, "cron", { value: (name: string) => void names.push(name) });
await import(${JSON.stringify(new URL("./main.ts", import.meta.url).href)});
console.log(JSON.stringify(names));`,
    );
    const config = new URL("./deno.json", import.meta.url).pathname;
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-all", "--config", config, probe],
      stdout: "piped",
      stderr: "piped",
    }).output();
    assertEquals(out.code, 0, new TextDecoder().decode(out.stderr));
    assertEquals(JSON.parse(new TextDecoder().decode(out.stdout)), ["timer-sweep"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
