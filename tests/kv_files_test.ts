/** A local KV file holds webhook signing secrets: the server keeps it and its companions owner-only. */
import assert from "node:assert/strict";
import { loadConfig } from "../config.ts";

const mode = async (path: string) => (await Deno.stat(path)).mode! & 0o777;

Deno.test({
  name: "after start the KV file, its -wal, -shm and .lock files are owner-only (0600), new or made readable before",
  ignore: Deno.build.os === "windows",
  async fn() {
    const { start } = await import("../main.ts");
    const dir = await Deno.makeTempDir();
    try {
      // One file made fresh by the server, one left world-readable by an older version.
      const old = `${dir}/old.sqlite3`;
      const kv = await Deno.openKv(old);
      await kv.set(["x"], 1);
      kv.close();
      await Deno.chmod(old, 0o644);
      for (const path of [`${dir}/data/new.sqlite3`, old]) {
        const config = loadConfig({ PORT: "0", HOSTNAME: "127.0.0.1", KV_PATH: path, LOG_REQUESTS: "0" });
        const running = await start(config, { shutdownWaitMs: 300 });
        try {
          await running.app.store.kv.set(["written"], 1); // the WAL exists while the server runs
          for (const file of [path, `${path}-wal`, `${path}-shm`, `${path}.lock`]) {
            assert.equal((await mode(file)).toString(8), "600", file);
          }
        } finally {
          await running.shutdown();
        }
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
