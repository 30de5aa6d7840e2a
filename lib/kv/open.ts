/**
 * Opens Deno KV at the configured path, creating the folder of a local file, and makes every
 * call on it retry SQLite's "database is locked" (several processes on one file: the server,
 * the keys CLI, a second server) with backoff, so no call site has to.
 */
import type { Config } from "../../config.ts";

export async function openKv(config: Pick<Config, "kvPath">): Promise<Deno.Kv> {
  const path = config.kvPath;
  const local = isLocalFile(path);
  if (local) {
    const dir = path.replace(/[/\\][^/\\]*$/, "");
    if (dir && dir !== path) await Deno.mkdir(dir, { recursive: true });
    // Created owner-only before SQLite opens it: its -wal and -shm files take the database's mode.
    await Deno.writeFile(path, new Uint8Array(), { createNew: true, mode: 0o600 }).catch(() => {});
  }
  const kv = await retryBusy(() => Deno.openKv(path));
  if (local) await ownerOnly([path, `${path}-wal`, `${path}-shm`]);
  return local ? retryingKv(kv) : kv;
}

/**
 * Makes files owner-only (0600): a local KV file holds webhook signing secrets, and one made under
 * umask 022 (or by an older version) is readable by every user of the machine. Where that cannot
 * be done (Windows, a file another user owns, a file not there) the file is left as it is.
 */
export async function ownerOnly(paths: string[]): Promise<void> {
  if (Deno.build.os === "windows") return;
  for (const p of paths) await Deno.chmod(p, 0o600).catch(() => {});
}

/** Whether a KV path names a local file (not memory, not a KV Connect URL, not the platform default). */
export function isLocalFile(path: string | undefined): path is string {
  return !!path && path !== ":memory:" && !/^https?:\/\//.test(path);
}

/**
 * Takes the advisory lock of `<file>.lock` beside a local KV file, held while the returned file
 * stays open (the OS lets go of it when the process dies, SIGKILL included): exclusive for a
 * server alone on its file, shared for servers that agreed to share it (KV_SHARED_FILE=1), so
 * neither kind starts beside the other. The file is named by its real path, so a symlink to it
 * (or to its folder) finds the same lock. Resolves null when the lock is held the other way.
 */
export async function lockKvFile(path: string, exclusive = true): Promise<Deno.FsFile | null> {
  const real = await Deno.realPath(path).catch(() => path); // not created yet: as spelled
  const file = await Deno.open(`${real}.lock`, { read: true, write: true, create: true, mode: 0o600 });
  await ownerOnly([`${real}.lock`]);
  if (await file.tryLock(exclusive)) return file;
  file.close();
  return null;
}

/**
 * Whether an error is SQLite's busy answer. Measured on Deno 2.9.6 with the keys CLI writing
 * while a server took POSTs on the same file: `kv.atomic().commit()` (and so `set`, `delete`,
 * `enqueue`, which are commits) rejects with `TypeError: database is locked`; nothing of the
 * refused transaction was written, so running it again is safe.
 */
export function isBusy(e: unknown): boolean {
  return e instanceof TypeError && /database is (locked|busy)|SQLITE_BUSY/i.test(e.message);
}

/**
 * Whether an error means the store cannot be reached now, so a request may succeed later (503):
 * a closed KV (`BadResource`), or a file still busy once the retries gave up.
 */
export function isUnavailable(e: unknown): boolean {
  return e instanceof Deno.errors.BadResource || isBusy(e);
}

/** How long a call keeps retrying before the busy error reaches its caller. */
export const BUSY_GIVE_UP_MS = 15_000;

/** Runs `op`, again after a growing, jittered pause whenever it fails because the file is busy. */
export async function retryBusy<T>(op: () => Promise<T>, giveUpMs = BUSY_GIVE_UP_MS): Promise<T> {
  let pause = 2;
  const until = performance.now() + giveUpMs;
  for (;;) {
    try {
      return await op();
    } catch (e) {
      if (!isBusy(e) || performance.now() + pause > until) throw e;
      await new Promise((r) => setTimeout(r, pause * (0.5 + Math.random())));
      pause = Math.min(pause * 2, 100);
    }
  }
}

/**
 * Wraps the instance's methods in place (it stays a `Deno.Kv`): the first attempt goes straight
 * through, so the hot path pays one `.catch` and nothing else.
 */
export function retryingKv(kv: Deno.Kv): Deno.Kv {
  const proto = Object.getPrototypeOf(kv) as Deno.Kv;
  // deno-lint-ignore no-explicit-any
  const again = <A extends any[], T>(fn: (...a: A) => Promise<T>) => (...a: A): Promise<T> =>
    fn.apply(kv, a).catch((e) => isBusy(e) ? retryBusy(() => fn.apply(kv, a)) : Promise.reject(e));
  const target = kv as unknown as Record<string, unknown>;
  for (const name of ["get", "getMany", "set", "delete", "enqueue"] as const) {
    target[name] = again(proto[name] as (...a: unknown[]) => Promise<unknown>);
  }
  const list = proto.list;
  kv.list = ((...a: Parameters<Deno.Kv["list"]>) => {
    const iter = list.apply(kv, a);
    const next = iter.next;
    iter.next = () => next.call(iter).catch((e) => isBusy(e) ? retryBusy(() => next.call(iter)) : Promise.reject(e));
    return iter;
  }) as Deno.Kv["list"];
  const atomic = proto.atomic;
  kv.atomic = () => {
    const op = atomic.call(kv);
    const commit = op.commit;
    // A commit refused as busy wrote nothing; the same operation can be committed again.
    op.commit = () => commit.call(op).catch((e) => isBusy(e) ? retryBusy(() => commit.call(op)) : Promise.reject(e));
    return op;
  };
  return kv;
}
