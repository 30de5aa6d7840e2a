/**
 * Accounts and their API keys in Deno KV. Timers belong to an account; an account holds any number
 * of named keys, each stored only as its SHA-256 with an index from that hash to the key.
 */
import type { PlanName } from "../../config.ts";
import { key } from "./keys.ts";

export interface WebhookSecret {
  secret: string;
  created_at: number;
  /**
   * Whether anyone was ever shown this secret. false: issued at sign-up and not yet revealed on
   * the dashboard (nobody can verify with it). Missing (records written before the flag): shown.
   */
  revealed?: boolean;
}

export interface Account {
  id: string;
  name: string;
  plan: PlanName;
  created_at: number;
  /** Newest first; an older one is kept for the rotation grace period. */
  webhook_secrets: WebhookSecret[];
}

/** One named API key of an account. The secret itself is never stored. */
export interface ApiKey {
  id: string;
  account_id: string;
  name: string;
  /** The key's first characters, safe to show in listings. */
  prefix: string;
  /** SHA-256 (hex) of the whole key. */
  hash: string;
  created_at: number;
  /** Coarse: written at most once an hour per key. */
  last_used_at: number | null;
  revoked_at: number | null;
}

/** What the key-hash index points at. */
interface KeyRef {
  account_id: string;
  key_id: string;
}

/** An account as written before accounts had named keys: one key inline. */
type LegacyAccount = Account & { key_hash?: string; key_prefix?: string; revoked_at?: number | null };

export class AccountStore {
  constructor(readonly kv: Deno.Kv) {}

  /** Stores a new account with its first key (if any). */
  async create(account: Account, first?: ApiKey): Promise<void> {
    const op = this.kv.atomic()
      .check({ key: key.account(account.id), versionstamp: null })
      .set(key.account(account.id), account);
    if (first) this.#addKey(op, first);
    if (!(await op.commit()).ok) throw new Error("account id or key collision; try again");
  }

  /** The administrator's account id (the instance's first sign-up), or null. */
  async administrator(): Promise<string | null> {
    return (await this.kv.get<string>(key.administrator())).value;
  }

  async get(id: string): Promise<Account | null> {
    const e = await this.kv.get<LegacyAccount>(key.account(id));
    if (!e.value) return null;
    return e.value.key_hash === undefined ? e.value : await this.#upgrade(e as Deno.KvEntry<LegacyAccount>);
  }

  async list(): Promise<Account[]> {
    const out: Account[] = [];
    for await (const e of this.kv.list<LegacyAccount>({ prefix: key.accounts() })) {
      out.push(e.value.key_hash === undefined ? e.value : await this.#upgrade(e));
    }
    return out;
  }

  /** Read-modify-write of an account, retried on conflict. */
  async update(id: string, change: (a: Account) => Account): Promise<Account | null> {
    for (;;) {
      if (!(await this.get(id))) return null;
      const entry = await this.kv.get<Account>(key.account(id));
      if (!entry.value) return null;
      const next = change(entry.value);
      if ((await this.kv.atomic().check(entry).set(key.account(id), next).commit()).ok) return next;
    }
  }

  /** Deletes the account record, its keys and their hash index (its timers and users go first). */
  async delete(id: string): Promise<void> {
    await this.deleteKeys(id);
    await this.kv.delete(key.account(id));
  }

  /** Deletes every key of an account (revoked ones included). */
  async deleteKeys(id: string): Promise<void> {
    for (const k of await this.listKeys(id)) {
      await this.kv.atomic().delete(key.apiKey(id, k.id)).delete(key.keyHash(k.hash)).commit();
    }
  }

  // ── keys ──────────────────────────────────────────────────────────────────────────────────

  #addKey(op: Deno.AtomicOperation, k: ApiKey): void {
    op.check({ key: key.keyHash(k.hash), versionstamp: null })
      .check({ key: key.apiKey(k.account_id, k.id), versionstamp: null })
      .set(key.apiKey(k.account_id, k.id), k)
      .set(key.keyHash(k.hash), { account_id: k.account_id, key_id: k.id } satisfies KeyRef);
  }

  /** The account record's version: a key added against it fails once the account changed. */
  async version(acct: string): Promise<Deno.AtomicCheck> {
    const e = await this.kv.get(key.account(acct));
    return { key: e.key, versionstamp: e.versionstamp };
  }

  /**
   * Adds a key to an existing account if the account is still at version `seen`, and moves the
   * account to a new version (so two additions decided on the same key list cannot both land).
   * False when it changed meanwhile.
   */
  async addKey(k: ApiKey, seen: Deno.AtomicCheck): Promise<boolean> {
    const acct = await this.kv.get(key.account(k.account_id));
    if (!acct.value) throw new Error(`no account "${k.account_id}"`);
    const op = this.kv.atomic().check(seen).set(acct.key, acct.value);
    this.#addKey(op, k);
    return (await op.commit()).ok;
  }

  /** An account's keys, revoked ones included, oldest first. */
  async listKeys(acct: string): Promise<ApiKey[]> {
    await this.get(acct);
    const out: ApiKey[] = [];
    for await (const e of this.kv.list<ApiKey>({ prefix: key.apiKeys(acct) })) out.push(e.value);
    return out.sort((a, b) => a.created_at - b.created_at);
  }

  async getKey(acct: string, id: string): Promise<ApiKey | null> {
    return (await this.kv.get<ApiKey>(key.apiKey(acct, id))).value;
  }

  /** The live key with this hash and its account; null for an unknown or revoked key. */
  async byKeyHash(hash: string): Promise<{ account: Account; key: ApiKey; guard: Deno.AtomicCheck } | null> {
    let entry = await this.kv.get<KeyRef | string>(key.keyHash(hash));
    if (typeof entry.value === "string") {
      await this.get(entry.value); // upgrades the legacy record and rewrites the index
      entry = await this.kv.get<KeyRef | string>(key.keyHash(hash));
    }
    const ref = entry.value;
    if (!ref || typeof ref === "string") return null;
    const [a, k] = await this.kv.getMany<[Account, ApiKey]>([
      key.account(ref.account_id),
      key.apiKey(ref.account_id, ref.key_id),
    ]);
    if (!a.value || !k.value || k.value.revoked_at !== null || k.value.hash !== hash) return null;
    // The index entry goes when the key is revoked or its account deleted: a write checking it fails then.
    return { account: a.value, key: k.value, guard: { key: entry.key, versionstamp: entry.versionstamp } };
  }

  /** Read-modify-write of a key; a revoked key leaves the hash index in the same commit. */
  async updateKey(acct: string, id: string, change: (k: ApiKey) => ApiKey): Promise<ApiKey | null> {
    for (;;) {
      const entry = await this.kv.get<ApiKey>(key.apiKey(acct, id));
      if (!entry.value) return null;
      const next = change(entry.value);
      const op = this.kv.atomic().check(entry).set(key.apiKey(acct, id), next);
      if (next.revoked_at !== null) op.delete(key.keyHash(next.hash));
      if ((await op.commit()).ok) return next;
    }
  }

  /** Records a use of a key; one attempt, a conflict means someone else just wrote it. */
  async touchKey(acct: string, id: string, at: number): Promise<void> {
    const entry = await this.kv.get<ApiKey>(key.apiKey(acct, id));
    if (!entry.value || (entry.value.last_used_at ?? 0) >= at) return;
    await this.kv.atomic().check(entry).set(key.apiKey(acct, id), { ...entry.value, last_used_at: at }).commit();
  }

  /** Rewrites an account of the one-key format as an account with one named key. */
  async #upgrade(entry: Deno.KvEntry<LegacyAccount>): Promise<Account> {
    const { key_hash, key_prefix, revoked_at, ...account } = entry.value;
    const k: ApiKey = {
      id: `key_${key_hash!.slice(0, 12)}`,
      account_id: account.id,
      name: "default",
      prefix: key_prefix ?? "",
      hash: key_hash!,
      created_at: account.created_at,
      last_used_at: null,
      revoked_at: revoked_at ?? null,
    };
    const op = this.kv.atomic().check(entry).set(key.account(account.id), account).set(key.apiKey(account.id, k.id), k);
    if (k.revoked_at === null) op.set(key.keyHash(k.hash), { account_id: account.id, key_id: k.id } satisfies KeyRef);
    await op.commit(); // a failed check means another reader upgraded it first
    return account;
  }

  /** Values of KV u64 counters (the rate limiter's windows); 0 for a missing one. */
  async counters(keys: Deno.KvKey[]): Promise<number[]> {
    const entries = await this.kv.getMany<Deno.KvU64[]>(keys);
    return entries.map((e) => Number(e.value?.value ?? 0n));
  }

  /** Live (unexpired) timers of an account, counted up to `max`. */
  async countTimers(acct: string, now: number, max = Infinity): Promise<number> {
    let n = 0;
    for await (const e of this.kv.list<number>({ prefix: key.acctTimers(acct) })) {
      if (e.value > now && ++n >= max) break;
    }
    return n;
  }

  /** Ids of every timer of an account, expired ones included. */
  async timerIds(acct: string): Promise<string[]> {
    const out: string[] = [];
    for await (const e of this.kv.list({ prefix: key.acctTimers(acct) })) out.push(e.key[e.key.length - 1] as string);
    return out;
  }
}
