/**
 * Shard leases of the due work, as stored: `["shard_range", n]` → `{ by }`, the instance holding shard
 * n, written and deleted only with a versionstamp check, so two instances never both win one.
 * What a shard holds and who should hold it is decided in lib/webhooks/shards.ts.
 */
import { commitWrites, type KvLimits, type KvWrite, LOCAL_KV_LIMITS } from "./batch.ts";
import { key } from "./keys.ts";

/** One shard's lease as read: its holder, and the versionstamp to check when changing it. */
export interface ShardLease {
  shard: number;
  by: string;
  versionstamp: string;
}

/** A change to make only if the lease still reads `versionstamp` (null: nobody holds it). */
export interface ShardChange {
  shard: number;
  versionstamp: string | null;
}

export class ShardStore {
  constructor(readonly kv: Deno.Kv, readonly limits: KvLimits = LOCAL_KV_LIMITS) {}

  /** Every shard lease held (one listing). */
  async leases(): Promise<ShardLease[]> {
    const out: ShardLease[] = [];
    for await (const e of this.kv.list<{ by: string }>({ prefix: key.shards() })) {
      const shard = e.key[1];
      if (typeof shard === "number" && typeof e.value?.by === "string") {
        out.push({ shard, by: e.value.by, versionstamp: e.versionstamp });
      }
    }
    return out;
  }

  /** Every instance's heartbeat counter as stored (one listing). */
  async heartbeats(): Promise<Map<string, unknown>> {
    const out = new Map<string, unknown>();
    for await (const e of this.kv.list({ prefix: key.instances() })) {
      const id = e.key[1];
      if (typeof id === "string" && id !== key.administrator()[1]) out.set(id, e.value);
    }
    return out;
  }

  /** One instance's heartbeat as stored, with its versionstamp (null: none). */
  async heartbeat(instance: string): Promise<{ value: unknown; versionstamp: string } | null> {
    const e = await this.kv.get(key.instance(instance));
    return e.versionstamp === null ? null : { value: e.value, versionstamp: e.versionstamp };
  }

  /**
   * Writes `stopped` as an instance's heartbeat (kept a day, as beats are) unless it changed since
   * `versionstamp`; false if it did.
   */
  async stopIfStill(instance: string, versionstamp: string, stopped: string): Promise<boolean> {
    const k = key.instance(instance);
    const op = this.kv.atomic().check({ key: k, versionstamp }).set(k, stopped, { expireIn: 86400_000 });
    return (await op.commit()).ok;
  }

  /** Names `by` the holder of these shards, each only if unchanged since read; returns those won. */
  claim(changes: ShardChange[], by: string): Promise<number[]> {
    return this.#commit(changes, (w, k) => w.sets.push({ key: k, value: { by } }));
  }

  /** Lets go of these shards, each only if unchanged since read; returns those let go. */
  release(changes: ShardChange[]): Promise<number[]> {
    return this.#commit(changes, (w, k) => w.deletes.push(k));
  }

  async #commit(changes: ShardChange[], mutate: (w: KvWrite, k: Deno.KvKey) => void): Promise<number[]> {
    const writes = changes.map(({ shard, versionstamp }) => {
      const k = key.shard(shard);
      const w: KvWrite = { checks: [{ key: k, versionstamp }], sets: [], deletes: [], enqueues: [] };
      mutate(w, k);
      return w;
    });
    const stamps = await commitWrites(this.kv, writes, this.limits);
    return changes.flatMap((c, n) => stamps[n] ? [c.shard] : []);
  }
}
