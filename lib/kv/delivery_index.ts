/**
 * An account's deliveries across its timers and endpoints, newest first: one index entry per
 * delivery (`{ timer_id, event }`), written and deleted in the same commit as the delivery, so the
 * index is exactly as long as the timers' bounded logs together (trimmed with them).
 */
import type { Delivery } from "../webhooks/delivery_model.ts";
import { key, pageCursor } from "./keys.ts";

/** What the index holds per delivery: enough to filter by timer and event without reading it. */
export interface AcctDeliveryRef {
  timer_id: string;
  event: string;
}

/** The index entry of a delivery (set with it, deleted with it). */
export function acctDeliveryEntry(d: Delivery): { key: Deno.KvKey; value: AcctDeliveryRef } {
  return { key: key.acctDelivery(d.account_id, d.id), value: { timer_id: d.timer_id, event: d.payload.event } };
}

export interface AcctDeliveryQuery {
  limit: number;
  cursor?: string;
  event?: string;
  state?: Delivery["state"];
  timer_id?: string;
}

/**
 * How many index entries one page reads at most: a filter that matches little answers a short (or
 * empty) page with a cursor to read on, instead of reading the whole log for one request.
 */
export const SCAN_PER_PAGE = 1000;

/** A page of an account's deliveries, newest first; `next_cursor` null once nothing is left to read. */
export async function listAccountDeliveries(
  kv: Deno.Kv,
  acct: string,
  q: AcctDeliveryQuery,
): Promise<{ deliveries: Delivery[]; next_cursor: string | null }> {
  const iter = kv.list<AcctDeliveryRef>({ prefix: key.acctDeliveries(acct) }, {
    reverse: true,
    cursor: pageCursor.unwrap("a", q.cursor),
    batchSize: 200,
  });
  const out: Delivery[] = [];
  let scanned = 0, after = "", exhausted = true;
  // Candidates are read 10 at a time (getMany's limit over KV Connect), each with the cursor after it.
  let batch: { ref: AcctDeliveryRef; id: string; cursor: string }[] = [];
  const drain = async (): Promise<boolean> => {
    const entries = await kv.getMany<Delivery[]>(batch.map((b) => key.delivery(b.ref.timer_id, b.id)));
    for (let i = 0; i < batch.length; i++) {
      after = batch[i].cursor;
      const d = entries[i].value;
      // A delivery deleted between the two reads is skipped; so is one of another state.
      if (d && (q.state === undefined || d.state === q.state)) out.push(d);
      if (out.length === q.limit) {
        batch = [];
        return true;
      }
    }
    batch = [];
    return false;
  };
  for await (const e of iter) {
    if (scanned++ === SCAN_PER_PAGE) {
      exhausted = false;
      break;
    }
    const ref = e.value;
    if ((q.timer_id && ref.timer_id !== q.timer_id) || (q.event && ref.event !== q.event)) {
      if (batch.length === 0) after = iter.cursor;
      continue;
    }
    batch.push({ ref, id: e.key[2] as string, cursor: iter.cursor });
    if (batch.length === 10 && await drain()) {
      exhausted = false;
      break;
    }
  }
  if (batch.length && await drain()) exhausted = false;
  if (exhausted) return { deliveries: out, next_cursor: null };
  return { deliveries: out, next_cursor: pageCursor.wrap("a", after) };
}

/** The timer a delivery of the account belongs to, by its id (null: none such). */
export async function acctDeliveryRef(kv: Deno.Kv, acct: string, id: string): Promise<AcctDeliveryRef | null> {
  if (id.length > 64) return null;
  return (await kv.get<AcctDeliveryRef>(key.acctDelivery(acct, id))).value;
}
