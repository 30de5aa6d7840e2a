/** Every Deno KV key of the service is spelled here, and nowhere else. */
import type { TimerType } from "../timers/model.ts";
import type { DueKind } from "./store.ts";

/** A rate-limit window's counter; its start is in the key, so an old window is never reused. */
export function rateKey(subject: string, window: "m" | "d", start: number): [string, string, string, number] {
  return ["rate", subject, window, start];
}

export const key = {
  account: (id: string) => ["account", id],
  keyHash: (hash: string) => ["key_hash", hash],
  timer: (id: string) => ["timer", id],
  acctSeq: (acct: string) => ["acct_seq", acct],
  acctTimer: (acct: string, created: number, id: string) => ["acct_timers", acct, created, id],
  acctTimerByType: (acct: string, type: TimerType, created: number, id: string) => [
    "acct_timers_type",
    acct,
    type,
    created,
    id,
  ],
  due: (at: number, kind: DueKind, ref: string) => ["due", at, kind, ref],
  delivery: (timerId: string, id: string) => ["delivery", timerId, id],
  // Prefixes, for listings.
  accounts: () => ["account"],
  acctTimers: (acct: string) => ["acct_timers", acct],
  acctTimersOfType: (acct: string, type: TimerType) => ["acct_timers_type", acct, type],
  deliveries: (timerId: string) => ["delivery", timerId],
  dueBefore: (until: number) => ({ start: ["due"], end: ["due", until] }),
} as const;
