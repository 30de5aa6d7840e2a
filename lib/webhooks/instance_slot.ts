/**
 * A restart's proof that its predecessor is gone, for instances sharing one KV. Each process holds a
 * slot of its machine: an advisory lock on a file in INSTANCE_DIR, which the OS lets go of when the
 * process ends (SIGKILL included), and writes in it the name it runs under. The process that takes
 * the slot next reads that name: that process has ended (DECISIONS.md, "Liveness of instances"),
 * so it is marked stopped, as a clean stop marks itself, and its claims and shards are taken over
 * within seconds instead of after the liveness bound (lease.ts, about 28 s).
 *
 * Two guards keep a live process from being marked. The name is written with the file's device and
 * inode, so a copy of the folder (a restored backup, a copied install) proves nothing. And the
 * predecessor's heartbeat must stand still for STILL_MS, then is replaced only if unchanged: one
 * that still beats (a folder shared between machines, a cloned disk) is left to the liveness bound.
 * Without a slot (no writable folder, all taken) the bound applies as before.
 */
import { createHash } from "node:crypto";
import type { ShardStore } from "../kv/shards.ts";
import { HEARTBEAT_MS, STOPPED } from "./lease.ts";

/** At most this many processes on one machine and one KV take a slot; more run without one. */
export const MAX_SLOTS = 64;

/** How long a predecessor's heartbeat must stand still before it is marked: three beats of a live process. */
export const STILL_MS = 3 * HEARTBEAT_MS;

/** A slot file's line: the name of its holder, then the file's device and inode when it was written. */
const LINE = /^([A-Za-z0-9_-]{1,64}) (\d+ \d+)$/;

export interface InstanceSlot {
  /** The slot's number on this machine (0 for the first process on this KV). */
  readonly n: number;
  /** The name this file's last holder ran under (null: none, or not written in this file): it has ended. */
  readonly predecessor: string | null;
  /** Writes the name this process runs under, for the next holder of the slot. */
  record(name: string): Promise<void>;
  /** Lets go of the slot (a clean stop; the OS does it when the process dies). */
  close(): void;
}

/**
 * Takes the first free slot of this machine for the KV at `kvPath` (its files are named by a hash
 * of it, so instances on two KVs never meet), or null when all are taken.
 */
export async function takeSlot(dir: string, kvPath: string): Promise<InstanceSlot | null> {
  await Deno.mkdir(dir, { recursive: true });
  const tag = createHash("sha256").update(kvPath).digest("hex").slice(0, 16);
  for (let n = 0; n < MAX_SLOTS; n++) {
    const file = await Deno.open(`${dir}/${tag}-${n}.lock`, { read: true, write: true, create: true });
    try {
      if (!(await file.tryLock(true))) {
        file.close();
        continue;
      }
      const { dev, ino } = await file.stat();
      const here = `${dev} ${ino}`;
      const m = LINE.exec(new TextDecoder().decode(await readSome(file)).trim());
      return {
        n,
        predecessor: m && m[2] === here ? m[1] : null,
        record: (name) => rewrite(file, `${name} ${here}\n`),
        close() {
          try {
            file.close();
          } catch { /* closed already */ }
        },
      };
    } catch (e) {
      file.close();
      throw e;
    }
  }
  return null;
}

/**
 * Marks a slot's predecessor stopped once its heartbeat has stood still for STILL_MS: "stopped";
 * "none" when it has no heartbeat left or stopped cleanly (nothing to take over); "beating" when
 * it beat again twice running (alive: not marked). One round is repeated, since a beat sent just
 * before the process died may land late. `signal` ends the wait (a shutdown): "none". `stillMs`
 * for tests.
 */
export async function markGone(
  shards: ShardStore,
  name: string,
  opts: { signal?: AbortSignal; stillMs?: number } = {},
): Promise<"stopped" | "none" | "beating"> {
  for (let round = 0; round < 2; round++) {
    const beat = await shards.heartbeat(name);
    if (!beat || beat.value === STOPPED) return "none";
    if (!await pause(opts.stillMs ?? STILL_MS, opts.signal)) return "none";
    if (await shards.stopIfStill(name, beat.versionstamp, STOPPED)) return "stopped";
  }
  return "beating";
}

/** Resolves true after `ms`, or false as soon as `signal` aborts. */
function pause(ms: number, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (v: boolean) => {
      clearTimeout(t);
      signal?.removeEventListener("abort", aborted);
      resolve(v);
    };
    const aborted = () => done(false);
    const t = setTimeout(() => done(true), ms);
    signal?.addEventListener("abort", aborted);
  });
}

async function readSome(file: Deno.FsFile): Promise<Uint8Array> {
  const buf = new Uint8Array(128);
  let len = 0;
  for (let got; len < buf.length && (got = await file.read(buf.subarray(len))) !== null;) len += got;
  return buf.subarray(0, len);
}

async function rewrite(file: Deno.FsFile, text: string): Promise<void> {
  const bytes = new TextEncoder().encode(text);
  await file.truncate(0);
  await file.seek(0, Deno.SeekMode.Start);
  for (let off = 0; off < bytes.length;) off += await file.write(bytes.subarray(off));
  await file.syncData();
}
