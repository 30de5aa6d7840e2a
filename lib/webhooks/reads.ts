/**
 * Reads asked for by attempts about to be sent (the re-check of one that waited, the order gate's
 * look at the one before), gathered: what is asked within one turn of the event loop goes in
 * getMany calls of up to GET_MANY_MAX keys, all in flight at once. Over a remote KV ten attempts
 * then pay one round trip together instead of one each; an account's last delete is read once
 * for all its attempts of the turn.
 */
import type { DeliveryEntry } from "../kv/deliveries.ts";
import type { Store } from "../kv/store.ts";
import { GET_MANY_MAX } from "../kv/batch.ts";
import type { Endpoint } from "./endpoints.ts";

export class DeliveryReads {
  #asked: { ref: string; done: PromiseWithResolvers<DeliveryEntry | null> }[] = [];
  /** Accounts whose last delete was asked for in this turn. */
  #accounts = new Map<string, PromiseWithResolvers<string | null>>();
  /** Accounts whose webhook endpoints were asked for in this turn. */
  #endpoints = new Map<string, PromiseWithResolvers<Endpoint[]>>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** getMany calls made for deliveries (for tests and measurements). */
  calls = 0;
  /** Reads made of accounts' last deletes (for tests and measurements). */
  accountCalls = 0;
  /** Reads made of accounts' webhook endpoints (for tests and measurements). */
  endpointCalls = 0;

  constructor(readonly store: Store) {}

  /** The delivery as stored now (null: gone), read with the others asked for in the same turn. */
  read(timerId: string, id: string): Promise<DeliveryEntry | null> {
    const done = Promise.withResolvers<DeliveryEntry | null>();
    this.#asked.push({ ref: `${timerId}/${id}`, done });
    // A full getMany goes at once; a partial one after the turn, with whatever was asked meanwhile.
    if (this.#asked.length >= GET_MANY_MAX) this.#flushDeliveries();
    else this.#timer ??= setTimeout(() => this.#flush(), 0);
    return done.promise;
  }

  /**
   * The versionstamp of the last commit that deleted a timer of the account, as stored now (null:
   * none ever; see `lastDeletes`), read once for every attempt asking in the same turn.
   */
  lastDelete(accountId: string): Promise<string | null> {
    let done = this.#accounts.get(accountId);
    if (!done) {
      this.#accounts.set(accountId, done = Promise.withResolvers<string | null>());
      this.#timer ??= setTimeout(() => this.#flush(), 0);
    }
    return done.promise;
  }

  /**
   * The account's webhook endpoints as stored now (not the planners' cache, which may not have seen
   * another instance's delete or disable yet), read once for every attempt asking in the same turn.
   */
  endpointsOf(accountId: string): Promise<Endpoint[]> {
    let done = this.#endpoints.get(accountId);
    if (!done) {
      this.#endpoints.set(accountId, done = Promise.withResolvers<Endpoint[]>());
      this.#timer ??= setTimeout(() => this.#flush(), 0);
    }
    return done.promise;
  }

  #flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#flushDeliveries();
    if (this.#endpoints.size) {
      const asked = [...this.#endpoints];
      this.#endpoints.clear();
      this.endpointCalls++;
      this.store.endpoints.readMany(asked.map(([a]) => a)).then(
        (found) => asked.forEach(([, done], n) => done.resolve(found[n])),
        (e) => asked.forEach(([, done]) => done.reject(e)),
      );
    }
    if (!this.#accounts.size) return;
    const asked = [...this.#accounts];
    this.#accounts.clear();
    this.accountCalls++;
    this.store.deliveries.lastDeletes(asked.map(([a]) => a)).then(
      (found) => asked.forEach(([, done], n) => done.resolve(found[n])),
      (e) => asked.forEach(([, done]) => done.reject(e)),
    );
  }

  #flushDeliveries(): void {
    while (this.#asked.length) {
      const part = this.#asked.splice(0, GET_MANY_MAX);
      this.calls++;
      this.store.deliveries.getDeliveries(part.map((a) => a.ref)).then(
        (found) => part.forEach((a, n) => a.done.resolve(found[n])),
        (e) => part.forEach((a) => a.done.reject(e)),
      );
    }
  }
}
