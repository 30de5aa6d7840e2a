/**
 * Account webhook endpoints in Deno KV: one record per account (at most ten endpoints), written
 * guarded by its versionstamp. Planners read it through a short per-process cache: a change made
 * here is seen at once; one made by another instance within CACHE_MS.
 */
import type { Endpoint, EndpointRecords } from "../webhooks/endpoints.ts";
import { getManyChunked } from "./batch.ts";
import { key } from "./keys.ts";

/** How long another instance's change to an account's endpoints may go unseen here. */
export const CACHE_MS = 5000;
/** Accounts cached at most (cleared past it: a miss costs one read). */
const CACHE_MAX = 10_000;

export class EndpointStore implements EndpointRecords {
  #cache = new Map<string, { endpoints: Endpoint[]; until: number }>();

  constructor(readonly kv: Deno.Kv) {}

  async read(acct: string): Promise<{ endpoints: Endpoint[]; versionstamp: string | null }> {
    const e = await this.kv.get<Endpoint[]>(key.webhookEndpoints(acct));
    return { endpoints: e.value ?? [], versionstamp: e.versionstamp };
  }

  /** The endpoints of these accounts as stored now (the sender's look before an attempt; no cache). */
  async readMany(accts: string[]): Promise<Endpoint[][]> {
    return (await getManyChunked<Endpoint[]>(this.kv, accts.map(key.webhookEndpoints))).map((e) => e.value ?? []);
  }

  /** Saves (and deletes) of endpoints begun through this process, counted; the last one's number by account. */
  #saveCount = 0;
  #lastSave = new Map<string, number>();

  /**
   * The number of the last save of the account's endpoints this process began or ended (0: none
   * known): an attempt that looked at them sends only if it is the same then (a change answered
   * here stops what was read before it, or while it was committed). Numbers are never reused, so
   * an account forgotten only reads as changed.
   */
  saves(acct: string): number {
    return this.#lastSave.get(acct) ?? 0;
  }

  #saving(acct: string): void {
    if (this.#lastSave.size >= CACHE_MAX) this.#lastSave.clear();
    this.#lastSave.set(acct, ++this.#saveCount);
  }

  async save(acct: string, endpoints: Endpoint[], versionstamp: string | null): Promise<boolean> {
    this.#saving(acct);
    const k = key.webhookEndpoints(acct);
    const op = this.kv.atomic().check({ key: k, versionstamp });
    if (endpoints.length) op.set(k, endpoints);
    else op.delete(k);
    const ok = (await op.commit()).ok;
    // Written or not, what this process plans with is read again; what was read meanwhile is stale.
    this.#saving(acct);
    this.#cache.delete(acct);
    return ok;
  }

  /** Deletes an account's endpoints (the account is being deleted). */
  async deleteAll(acct: string): Promise<void> {
    this.#saving(acct);
    await this.kv.delete(key.webhookEndpoints(acct));
    this.#saving(acct);
    this.#cache.delete(acct);
  }

  /** The account's endpoints as cached, if they are (see `load`). */
  cached(acct: string): Endpoint[] | undefined {
    return this.#cache.get(acct)?.endpoints;
  }

  /** Makes the endpoints of these accounts cached and fresh at `now`. */
  async load(accts: Iterable<string>, now: number): Promise<void> {
    const stale = [...new Set(accts)].filter((a) => (this.#cache.get(a)?.until ?? -Infinity) <= now);
    if (this.#cache.size + stale.length > CACHE_MAX) this.#cache.clear();
    const entries = await getManyChunked<Endpoint[]>(this.kv, stale.map(key.webhookEndpoints));
    stale.forEach((a, n) => this.#cache.set(a, { endpoints: entries[n].value ?? [], until: now + CACHE_MS }));
  }

  /** The account's endpoints, cached for planning (at most CACHE_MS old). */
  async of(acct: string, now: number): Promise<Endpoint[]> {
    await this.load([acct], now);
    return this.cached(acct)!;
  }
}
