/**
 * All Deno KV access: every key is spelled in keys.ts and written here or in the store modules
 * beside this one (accounts, users, timers, deliveries, the due index). Every multi-key write is
 * one atomic operation with explicit checks, sized to the backend's limits (batch.ts); a timer's
 * change, its due entries, its queue wake-ups and the deliveries its events cause commit together.
 */
import { type Account, AccountStore } from "./accounts.ts";
import { UserStore } from "./users.ts";
import type { StoreOptions } from "./due.ts";
import { TimerStore } from "./timers.ts";
import { DeliveryStore } from "./deliveries.ts";
import { RundownStore } from "./rundowns.ts";
import { EndpointStore } from "./endpoints.ts";
import { ShardStore } from "./shards.ts";

export type { Account, ApiKey, WebhookSecret } from "./accounts.ts";
export type { Attempt, Delivery, DeliveryChange, WebhookPayload } from "../webhooks/delivery_model.ts";
export type {
  Committed,
  DueEntry,
  DueItem,
  DueKind,
  DueValue,
  DueWrite,
  OnCommitted,
  QueueMessage,
  RefRange,
  StoreOptions,
} from "./due.ts";
export { QUEUE_SLACK_MS } from "./due.ts";
export type { TimerChange, TimerEntry } from "./timers.ts";
export type { DeliveryEntry } from "./deliveries.ts";
export type { ShardChange, ShardLease } from "./shards.ts";
export type { NewRundownWrite, RundownChange, RundownEntry, RundownWriteOutcome } from "./rundowns.ts";

export class Store {
  /** Timers and the due index (lib/kv/timers.ts, lib/kv/due.ts). */
  readonly timers: TimerStore;
  /** Webhook deliveries (lib/kv/deliveries.ts). */
  readonly deliveries: DeliveryStore;
  /** Account webhook endpoints, cached for planning (lib/kv/endpoints.ts). */
  readonly endpoints: EndpointStore;

  constructor(readonly kv: Deno.Kv, readonly opts: StoreOptions = { useQueue: false }) {
    this.timers = new TimerStore(kv, opts);
    this.deliveries = new DeliveryStore(kv, opts);
    this.endpoints = new EndpointStore(kv);
  }

  #shards?: ShardStore;
  /** Shard leases of the due work (lib/kv/shards.ts). */
  get shards(): ShardStore {
    return this.#shards ??= new ShardStore(this.kv, this.timers.limits);
  }

  #rundowns?: RundownStore;
  /** Rundowns of timers (lib/kv/rundowns.ts). */
  get rundowns(): RundownStore {
    return this.#rundowns ??= new RundownStore(this.kv, this.opts, this.timers);
  }

  // ── accounts ────────────────────────────────────────────────────────────────────────────

  #accounts?: AccountStore;
  #users?: UserStore;
  /** Accounts and their API keys (lib/kv/accounts.ts). */
  get accounts(): AccountStore {
    return this.#accounts ??= new AccountStore(this.kv);
  }
  /** Users, sessions, passkeys and one-time tokens (lib/kv/users.ts). */
  get users(): UserStore {
    return this.#users ??= new UserStore(this.kv);
  }

  /** The account (its plan and webhook secrets), as the scheduler and pages read it. */
  getAccount(id: string): Promise<Account | null> {
    return this.accounts.get(id);
  }

  // ── timers and deliveries, as the routes and pages read them ────────────────────────────

  getTimer(id: string) {
    return this.timers.getTimer(id);
  }

  watchTimer(id: string) {
    return this.timers.watchTimer(id);
  }

  listTimers(...args: Parameters<TimerStore["listTimers"]>) {
    return this.timers.listTimers(...args);
  }

  getDelivery(timerId: string, id: string) {
    return this.deliveries.getDelivery(timerId, id);
  }

  listDeliveries(...args: Parameters<DeliveryStore["listDeliveries"]>) {
    return this.deliveries.listDeliveries(...args);
  }

  putDelivery(...args: Parameters<DeliveryStore["putDelivery"]>) {
    return this.deliveries.putDelivery(...args);
  }

  updateDelivery(...args: Parameters<DeliveryStore["updateDelivery"]>) {
    return this.deliveries.updateDelivery(...args);
  }
}
