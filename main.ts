/** Starts the service: opens KV, starts the background workers and serves HTTP. */
import { createApp } from "./app.ts";
import { loadConfig } from "./config.ts";
import { jsonLogger } from "./lib/http.ts";
import { openKv } from "./lib/kv/open.ts";
import { Store } from "./lib/kv/store.ts";

/** Whether this KV supports queues (the embedded SQLite KV does; Deno Deploy's does not). */
async function hasQueues(kv: Deno.Kv): Promise<boolean> {
  try {
    await kv.enqueue({ kind: "probe" });
    return true;
  } catch {
    return false;
  }
}

/** Runs the service until the returned `shutdown` is called. */
export async function start(config = loadConfig()) {
  const kv = await openKv(config);
  const useQueue = config.scheduler === "auto" ? await hasQueues(kv) : config.scheduler === "queue";
  const store = new Store(kv, { useQueue });
  const app = createApp({ store, config, log: jsonLogger });
  app.limiter.start();
  app.scheduler.start();
  // Deno Deploy has Deno.cron but no queues: a minutely sweep there catches anything overdue.
  if (!useQueue && typeof Deno.cron === "function") {
    try {
      Deno.cron("timer-sweep", "* * * * *", () => app.scheduler.sweep());
    } catch { /* cron unavailable here: the in-process sweep still runs */ }
  }
  const server = Deno.serve({
    port: config.port,
    onListen: ({ hostname, port }) =>
      jsonLogger({
        time: new Date().toISOString(),
        level: "info",
        msg: "listening",
        hostname,
        port,
        site_url: config.siteUrl,
        scheduler: useQueue ? "queue" : "sweep",
      }),
  }, app.app.fetch);
  const shutdown = async () => {
    await server.shutdown();
    await app.scheduler.stop();
    await app.limiter.stop();
    kv.close();
  };
  return { app, server, shutdown };
}

if (import.meta.main) {
  const { shutdown } = await start();
  for (const sig of ["SIGINT", "SIGTERM"] as const) {
    Deno.addSignalListener(sig, () => shutdown().finally(() => Deno.exit(0)));
  }
}
