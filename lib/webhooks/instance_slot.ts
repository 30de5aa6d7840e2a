/**
 * Proof that a predecessor is gone, for instances sharing one KV. Each process holds a slot of its
 * machine: an advisory lock on a file in INSTANCE_DIR, which the OS lets go of when the process
 * ends (SIGKILL included), and writes in it the name it runs under. The process that takes the
 * slot next reads that name: its process is certainly gone (DECISIONS.md, "Liveness of
 * instances"), so its claims and shards can be taken over at the restart instead of after the
 * liveness bound (lease.ts, about 28 s). Without a slot (no writable folder, all taken) the bound
 * applies as before.
 *
 * It proves nothing on a folder that other machines share: a lock over a network share may not
 * keep another machine's process out of the same slot.
 */
import { createHash } from "node:crypto";

/** At most this many processes on one machine and one KV take a slot; more run without one. */
export const MAX_SLOTS = 64;

/** What a lock file may name: an instance's name as Lease writes it, nothing longer. */
const NAME = /^[A-Za-z0-9_-]{1,64}$/;

export interface InstanceSlot {
  /** The slot's number on this machine (0 for the first process on this KV). */
  readonly n: number;
  /** The name the slot's last holder ran under (null: none, or unreadable): that process is gone. */
  readonly predecessor: string | null;
  /** Writes the name this process runs under, for the next holder of the slot. */
  record(name: string): Promise<void>;
  /** Lets go of the slot (a clean stop; the OS does it on a crash). */
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
    if (!(await file.tryLock(true).catch(() => false))) {
      file.close();
      continue;
    }
    const text = new TextDecoder().decode(await readAll(file)).trim();
    return {
      n,
      predecessor: NAME.test(text) ? text : null,
      async record(name: string) {
        await file.truncate(0);
        await file.seek(0, Deno.SeekMode.Start);
        await file.write(new TextEncoder().encode(name));
        await file.syncData();
      },
      close() {
        try {
          file.close();
        } catch { /* closed already */ }
      },
    };
  }
  return null;
}

async function readAll(file: Deno.FsFile): Promise<Uint8Array> {
  const buf = new Uint8Array(128);
  let len = 0;
  for (let got; len < buf.length && (got = await file.read(buf.subarray(len))) !== null;) len += got;
  return buf.subarray(0, len);
}
