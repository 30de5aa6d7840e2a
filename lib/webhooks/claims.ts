/**
 * Claims due deliveries for this process, which the sender then sends (sender.ts): in bulk from
 * the records a wake-up read, and read afresh for what that could not take (a claim run out, a
 * claimer gone, an entry without its record). A claim is a lease (lease.ts): another instance
 * takes a delivery over only once its claimer is certainly gone; this process takes its own claim
 * up again only when no attempt of it is held here. Each account holds a bounded number here.
 */
import type { DueEntry, Store } from "../kv/store.ts";
import { claim, type Delivery, type DeliveryChange } from "./delivery_model.ts";
import type { Lease } from "./lease.ts";

/**
 * Claimed attempts one account may have in this process (in flight or waiting). Beyond it due
 * deliveries of the account are not claimed (the sweep finds them again), and one born claimed is
 * not queued here: it stays in KV until its claim runs out. So receivers slower than an account's
 * webhooks come hold KV records, not this process's memory
 * (measured: one pro account with 42 one-second intervals and 9-s receivers grew RSS by 500 MB in
 * 13 minutes, the attempts queued behind each timer's earlier ones). Far above a burst's: 10 000
 * timers of one account due at once all wait here.
 */
const MAX_HELD_PER_ACCOUNT = 20_000;
/** Stale due entries `stepAll` deletes side by side (each its own checked commit). */
const STALE_DELETES_AT_ONCE = 16;

export interface ClaimsDeps {
  store: Store;
  now: () => number;
  /** This process's claims and its view of other instances' heartbeats. */
  lease: Lease;
  /** Attempts of the account queued or running in this process's pool. */
  pendingOf: (accountId: string) => number;
  /** Whether an attempt of this delivery (`timerId/id`) is held here, from its queue to its record. */
  holds: (ref: string) => boolean;
  /** Hands a claimed delivery to the pool. */
  submit: (d: Delivery, versionstamp: string) => void;
  /** Reads ahead what the deliveries just claimed come after (order.ts). */
  prefetch: (ds: Delivery[]) => void;
}

export class Claims {
  constructor(readonly deps: ClaimsDeps) {}

  /** Claimed attempts one account may have here (see MAX_HELD_PER_ACCOUNT; tests lower it). */
  maxHeldPerAccount = MAX_HELD_PER_ACCOUNT;

  /** Claims being committed, by account: they count against its bound until submitted or refused. */
  #claiming = new Map<string, number>();

  #claimingOf(accountId: string, by: number): void {
    const n = (this.#claiming.get(accountId) ?? 0) + by;
    if (n > 0) this.#claiming.set(accountId, n);
    else this.#claiming.delete(accountId);
  }

  /**
   * Whether the account holds as many attempts here as it may, counting the claims being
   * committed by any wake-up of this process (and `planned` more): more are neither claimed nor queued.
   */
  full(accountId: string, planned = 0): boolean {
    const held = this.deps.pendingOf(accountId) + (this.#claiming.get(accountId) ?? 0) + planned;
    return held >= this.maxHeldPerAccount;
  }

  /** Commits claims, counted against their accounts' bounds while the commit runs. */
  async #claim(changes: DeliveryChange[], now: number): Promise<(string | null)[]> {
    for (const c of changes) this.#claimingOf(c.next.account_id, 1);
    try {
      return await this.deps.store.deliveries.commitDeliveries(changes, now, false);
    } finally {
      for (const c of changes) this.#claimingOf(c.next.account_id, -1);
    }
  }

  /** `d` claimed by this instance from `now` on. */
  #claimed(d: Delivery, now: number): Delivery {
    const c = this.deps.lease.claim(now);
    return claim(d, c.until, c.by);
  }

  /**
   * Claims the due attempts among `entries` (records read with the due index) in as few commits
   * as the limits allow, and sends them. Returns the refs it could not claim in bulk.
   */
  async claimAndSend(entries: DueEntry[]): Promise<DueEntry[]> {
    const now = this.deps.now();
    const changes: DeliveryChange[] = [];
    const rest: DueEntry[] = [];
    const read: DueEntry[] = [];
    const planned = new Map<string, number>();
    for (const e of entries) {
      const d = e.value.kind === "delivery" ? e.value.delivery : null;
      // An account holding its bound here: left due, unclaimed (a claim now would only run out).
      if (d && this.full(d.account_id, planned.get(d.account_id))) continue;
      if (d && d.state === "pending" && d.next_attempt_at === e.item.at && d.next_attempt_at <= now) {
        changes.push({ versionstamp: e.versionstamp, prev: d, next: this.#claimed(d, now) });
        planned.set(d.account_id, (planned.get(d.account_id) ?? 0) + 1);
        read.push(e);
      } else rest.push(e);
    }
    const stamps = changes.length ? await this.#claim(changes, now) : [];
    if (changes.length > 1) this.deps.prefetch(changes.map((c) => c.next));
    stamps.forEach((vs, n) => {
      if (vs) this.deps.submit(changes[n].next, vs);
      else rest.push(read[n]);
    });
    return rest;
  }

  /**
   * Due entries read afresh together (those the bulk claim could not take: claimed, or written
   * without a record): a due attempt is claimed and sent, a stale entry tidied. A running claim is
   * taken up by its own instance only when no attempt of it is held here (an outcome still being
   * recorded is not sent again), by another only once its claimer is certainly gone — and then at
   * once, before it runs out. In bulk: one read of the deliveries and of their claimers' heartbeats,
   * the claims in as few commits as the limits allow. A killed instance leaves thousands of claims
   * that run out together; stepped one at a time (three round trips each) they took minutes over
   * KV Connect.
   */
  async stepAll(entries: DueEntry[]): Promise<void> {
    const { store, now, lease } = this.deps;
    const todo = entries.filter((e) => !this.deps.holds(e.item.ref));
    if (!todo.length) return;
    const found = await store.deliveries.getDeliveries(todo.map((e) => e.item.ref));
    const t = now();
    const stale: DueEntry[] = [];
    const candidates: { d: Delivery; versionstamp: string }[] = [];
    found.forEach((f, n) => {
      const d = f?.delivery;
      if (!f || !d || d.next_attempt_at !== todo[n].item.at) return void stale.push(todo[n]);
      if (d.state === "pending") candidates.push({ d, versionstamp: f.versionstamp });
    });
    for (let i = 0; i < stale.length; i += STALE_DELETES_AT_ONCE) {
      await Promise.all(stale.slice(i, i + STALE_DELETES_AT_ONCE).map((e) => store.deliveries.deleteDue(e)));
    }
    const byOthers = (d: Delivery) => d.claimed && d.claimed_by !== undefined && d.claimed_by !== lease.instance;
    const claimers = [...new Set(candidates.filter((c) => byOthers(c.d)).map((c) => c.d.claimed_by!))];
    const gone = claimers.length ? await this.#gone(claimers) : new Set<string>();
    const changes: DeliveryChange[] = [];
    const planned = new Map<string, number>();
    for (const { d, versionstamp } of candidates) {
      const taken = byOthers(d) && gone.has(d.claimed_by!);
      if (!taken && (d.next_attempt_at! > t || byOthers(d))) continue;
      if (this.full(d.account_id, planned.get(d.account_id)) || this.deps.holds(`${d.timer_id}/${d.id}`)) continue;
      changes.push({ versionstamp, prev: d, next: this.#claimed(d, t) });
      planned.set(d.account_id, (planned.get(d.account_id) ?? 0) + 1);
    }
    const stamps = changes.length ? await this.#claim(changes, t) : [];
    if (changes.length > 1) this.deps.prefetch(changes.map((c) => c.next));
    stamps.forEach((vs, n) => vs && this.deps.submit(changes[n].next, vs));
  }

  /** The instances among `instances` certainly gone, by their heartbeats read now (lease.ts). */
  async #gone(instances: string[]): Promise<Set<string>> {
    return this.deps.lease.observe(await this.deps.store.timers.heartbeats(instances));
  }
}
