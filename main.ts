/** Starts the service: opens KV, serves HTTP and starts the background workers. */
import { createApp } from "./app.ts";
import { type Config, ConfigError, loadConfig } from "./config.ts";
import { jsonLogger, stdoutLog } from "./lib/http.ts";
import { isLocalFile, lockKvFile, openKv } from "./lib/kv/open.ts";
import { Store } from "./lib/kv/store.ts";
import { probeKvLimits } from "./lib/kv/batch.ts";
import { dropUnreadableExtraCa } from "./lib/webhooks/deliver.ts";
import { type InstanceSlot, markGone, takeSlot } from "./lib/webhooks/instance_slot.ts";

/** The service could not start for a reason the operator can fix; the message says how, in one line. */
export class StartError extends Error {
  override name = "StartError";
}

/** Whether this KV supports queues (the embedded SQLite KV does; Deno Deploy's does not). */
async function hasQueues(kv: Deno.Kv): Promise<boolean> {
  try {
    await kv.enqueue({ kind: "probe" });
    return true;
  } catch {
    return false;
  }
}

/** The running service's sweep, for the minutely cron below (null while no service runs here). */
let cronSweep: (() => Promise<void>) | null = null;
// Deno Deploy has no queues and keeps an isolate only while requests arrive; it picks up a cron
// only when registered at module top level, before Deno.serve. Registered here unconditionally, it
// wakes an idle deployment once a minute to run what is overdue (elsewhere it is one more sweep).
if (typeof Deno.cron === "function") {
  Deno.cron("timer-sweep", "* * * * *", () => cronSweep?.() ?? Promise.resolve());
}

/** How long a shutdown waits for open connections before it stops the rest anyway. */
const SHUTDOWN_WAIT_MS = 10_000;

const firstLine = (e: unknown) => String(e instanceof Error ? e.message : e).split("\n")[0].trim();

/** One sentence for a failed listen: which port or address, and what to change. */
function listenProblem(e: unknown, config: Pick<Config, "port" | "hostname">): string {
  const { port, hostname } = config;
  const on = hostname === "0.0.0.0" ? "" : ` on ${hostname}`;
  if (e instanceof Deno.errors.AddrInUse) return `port ${port}${on} is already in use; set PORT to another port`;
  if (e instanceof Deno.errors.AddrNotAvailable) {
    return `HOSTNAME=${hostname} is not an address of this machine; set HOSTNAME to one of its addresses or 0.0.0.0`;
  }
  if (e instanceof Deno.errors.PermissionDenied) {
    return `port ${port} needs elevated privileges here; set PORT to 1024 or above`;
  }
  return `could not listen on ${hostname}:${port} (${firstLine(e)}); check HOSTNAME and PORT`;
}

/**
 * Sharing a KV, takes this process's slot of the machine (lib/webhooks/instance_slot.ts) and writes
 * in it the name this process runs under, before the scheduler claims anything. Without one
 * (INSTANCE_DIR empty, not writable, or every slot taken) it says so: a restart after a crash then
 * waits for the liveness bound.
 */
async function instanceSlot(config: Config, instance: string, log: Say): Promise<InstanceSlot | null> {
  if (!config.instanceDir || !config.kvPath) return null;
  let slot: InstanceSlot | null;
  try {
    const kvPath = isLocalFile(config.kvPath) ? await Deno.realPath(config.kvPath) : config.kvPath;
    slot = await takeSlot(config.instanceDir, kvPath);
  } catch (e) {
    log("warn", "no instance slot", { instance_dir: config.instanceDir, error: firstLine(e) });
    return null;
  }
  if (!slot) {
    log("warn", "no instance slot free", { instance_dir: config.instanceDir });
    return null;
  }
  await slot.record(instance).catch((e) => log("warn", "instance slot not written", { error: firstLine(e) }));
  log("info", "instance slot", { slot: slot.n, predecessor: slot.predecessor });
  return slot;
}

/** Marks the slot's last holder stopped once its heartbeat proves still: every instance takes its work over. */
async function predecessorGone(store: Store, slot: InstanceSlot, signal: AbortSignal, log: Say): Promise<void> {
  const { n, predecessor } = slot;
  if (!predecessor) return;
  const found = await markGone(store.shards, predecessor, { signal }).catch((e) => {
    log("warn", "predecessor not marked", { slot: n, predecessor, error: firstLine(e) });
    return null;
  });
  if (found === "stopped") log("info", "predecessor gone", { slot: n, predecessor });
  if (found === "beating") {
    log("warn", "predecessor still beating", {
      slot: n,
      predecessor,
      hint: "its slot file names a running process: keep INSTANCE_DIR on this machine's own disk, never copied",
    });
  }
}

type Say = (level: string, msg: string, extra: Record<string, unknown>) => void;

/** Runs the service until the returned `shutdown` is called. Throws StartError when it cannot start. */
export async function start(config = loadConfig(), opts: { shutdownWaitMs?: number } = {}) {
  let kv: Deno.Kv;
  try {
    kv = await openKv(config);
  } catch (e) {
    throw new StartError(`KV_PATH=${config.kvPath ?? "(platform default)"} could not be opened (${firstLine(e)})`);
  }
  // One server per local file unless told otherwise: another's writes never reach this one's kv.watch.
  let lock: Deno.FsFile | null = null;
  if (isLocalFile(config.kvPath)) {
    lock = await lockKvFile(config.kvPath, !config.kvSharedFile).catch((e) => {
      kv.close();
      throw new StartError(`could not lock ${config.kvPath}.lock (${firstLine(e)}); check the folder's permissions`);
    });
    if (!lock) {
      kv.close();
      throw new StartError(
        config.kvSharedFile
          ? `KV_PATH=${config.kvPath} is in use by a server started without KV_SHARED_FILE=1, which counts on being ` +
            "alone on it; stop it, or start every server on this file with KV_SHARED_FILE=1"
          : `KV_PATH=${config.kvPath} is in use by another server, whose changes this one's live pages would not see; ` +
            "stop it, or set KV_SHARED_FILE=1 to run both anyway",
      );
    }
  }
  const useQueue = config.scheduler === "auto" ? await hasQueues(kv) : config.scheduler === "queue";
  const limits = await probeKvLimits(kv);
  const store = new Store(kv, { useQueue, limits });
  // Told once listening (the first line a supervisor reads stays "listening").
  const caWarning = dropUnreadableExtraCa();
  // Holding the file's lock (or a private in-memory KV), no other scheduler runs on this KV: every
  // shard of the due work is this one's, and a dead predecessor's claims are taken over at once.
  // On Deno Deploy isolates come and go unannounced (a shard held by one killed would wait ~28 s,
  // longer than a cron-woken isolate may live): each steps everything, as before shards.
  const onDeploy = !!Deno.env.get("DENO_DEPLOYMENT_ID");
  const alone = (lock !== null && !config.kvSharedFile) || config.kvPath === ":memory:";
  const sharing = alone ? "alone" : onDeploy ? undefined : "shared";
  const app = createApp({ store, config, log: jsonLogger, sharing });
  let stopping = false;
  let listened = false;
  const listen = () =>
    Deno.serve({
      port: config.port,
      hostname: config.hostname,
      onListen: ({ hostname, port }) => {
        if (listened) return; // listening again after an outage is told once it lasted (below)
        listened = true;
        if (config.port === 0) {
          // PORT=0 picked a free port: the default SITE_URL names it (not port 0), and a listen
          // after an outage takes the same one.
          if (config.siteUrl === "http://localhost:0") config.siteUrl = `http://localhost:${port}`;
          config.port = port;
        }
        jsonLogger({
          time: new Date().toISOString(),
          level: "info",
          msg: "listening",
          hostname,
          port,
          site_url: config.siteUrl,
          scheduler: useQueue ? "queue" : "sweep",
          shards: sharing === "shared" ? "shared" : "all",
          instance: app.scheduler.instance,
          kv_checks_per_commit: limits.checks,
          kv_commits_in_flight: limits.inFlight,
        });
        if (caWarning) jsonLogger({ time: new Date().toISOString(), level: "warn", msg: caWarning });
      },
    }, app.app.fetch);
  /**
   * The HTTP server stops for good when accepting a connection fails (measured: "Too many open
   * files" once idle connections fill the process's file limit; the rejection killed the process).
   * The process stays (timers and webhooks go on) and listens again, after 1 s, 2 s, 4 s … at most
   * 30 s while it keeps failing; the log says when it stopped and when it served again for 3 s.
   */
  let outage: { since: number; stops: number } | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  const log = (level: string, msg: string, extra: Record<string, unknown>) =>
    jsonLogger({ time: new Date().toISOString(), level, msg, ...extra });
  const keepServing = (s: Deno.HttpServer<Deno.NetAddr>) => {
    let ended = false;
    s.finished.then(() => ended = true, (e) => {
      ended = true;
      if (stopping) return;
      if (!outage) log("error", "HTTP server stopped", { error: firstLine(e) });
      outage ??= { since: Date.now(), stops: 0 };
      retryTimer = setTimeout(retry, Math.min(30_000, 1000 * 2 ** outage.stops++));
    });
    if (!outage) return;
    const seen = outage;
    setTimeout(() => {
      if (ended || stopping || outage !== seen) return;
      log("info", "HTTP server listening again", { after_ms: Date.now() - seen.since, stops: seen.stops });
      outage = null;
    }, 3000);
  };
  const retry = () => {
    if (stopping) return;
    try {
      keepServing(server = listen());
    } catch {
      retryTimer = setTimeout(retry, Math.min(30_000, 1000 * 2 ** outage!.stops++));
    }
  };
  let server: Deno.HttpServer<Deno.NetAddr>;
  try {
    server = listen();
  } catch (e) {
    kv.close();
    lock?.close();
    throw new StartError(listenProblem(e, config));
  }
  keepServing(server);
  // The workers start once the port is ours: a second copy on a busy port never runs them.
  const slot = sharing === "shared" ? await instanceSlot(config, app.scheduler.instance, log) : null;
  const slotWait = new AbortController();
  app.limiter.start();
  app.requestLog.start();
  app.scheduler.start();
  cronSweep = () => app.scheduler.sweep();
  if (slot) void predecessorGone(store, slot, slotWait.signal, log);
  const shutdown = async () => {
    stopping = true;
    cronSweep = null;
    slotWait.abort();
    clearTimeout(retryTimer);
    // Open live streams never end by themselves: the server's shutdown would wait for every
    // browser to leave while their pages stayed "live" on this dying process. Ended, each
    // EventSource reconnects to the process that serves next.
    app.streams.endAll();
    // A client that reads nothing keeps its connection (and the server's shutdown) waiting for
    // ever: past SHUTDOWN_WAIT_MS the rest of the shutdown goes on without it.
    let waited: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise((r) => waited = setTimeout(r, opts.shutdownWaitMs ?? SHUTDOWN_WAIT_MS));
    await Promise.race([server.shutdown(), deadline]);
    clearTimeout(waited);
    await app.scheduler.stop();
    await app.limiter.stop();
    await app.requestLog.stop();
    kv.close();
    lock?.close();
    slot?.close();
    // Request log lines still being written go out before the process exits.
    await stdoutLog.flush();
  };
  return {
    app,
    get server() {
      return server;
    },
    shutdown,
  };
}

if (import.meta.main) {
  try {
    const { shutdown } = await start();
    for (const sig of ["SIGINT", "SIGTERM"] as const) {
      Deno.addSignalListener(sig, () => shutdown().finally(() => Deno.exit(0)));
    }
  } catch (e) {
    if (!(e instanceof ConfigError || e instanceof StartError)) throw e;
    const lines = e instanceof ConfigError ? e.problems.map((p) => `Configuration error: ${p}`) : [e.message];
    // deno-lint-ignore no-console
    for (const line of lines) console.error(line);
    Deno.exit(1);
  }
}
