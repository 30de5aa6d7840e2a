/**
 * An account's API request log in Deno KV: a ring of REQUEST_LOG_SIZE slots per account and a
 * sequence counter, so the log can never hold more than its size and a write never reads it.
 */
import { key } from "./keys.ts";

/** How many of an account's requests the log keeps. */
export const REQUEST_LOG_SIZE = 1000;
/** Slots written per commit (well under the backends' mutation limits). */
const PER_COMMIT = 100;

/** One API request as logged: never a body, never a credential. */
export interface RequestRecord {
  /** The request's place in the account's sequence (newest is highest). */
  seq: number;
  /** Epoch ms when it arrived. */
  at: number;
  method: string;
  /** The path, with the query's values redacted but for known harmless ones. */
  path: string;
  status: number;
  /** The prefix of the API key used; null for a control token. */
  key_prefix: string | null;
  request_id: string;
  duration_ms: number;
}

/** Appends an account's requests (oldest first) to its ring; only the newest REQUEST_LOG_SIZE matter. */
export async function appendRequests(kv: Deno.Kv, acct: string, records: Omit<RequestRecord, "seq">[]) {
  let rest = records.slice(-REQUEST_LOG_SIZE);
  while (rest.length) {
    const part = rest.slice(0, PER_COMMIT);
    for (let attempt = 0;; attempt++) {
      const seq = await kv.get<Deno.KvU64>(key.requestLogSeq(acct));
      const n = seq.value ? Number(seq.value.value) : 0;
      const op = kv.atomic().check(seq).set(key.requestLogSeq(acct), new Deno.KvU64(BigInt(n + part.length)));
      part.forEach((r, i) => op.set(key.requestLog(acct, (n + i) % REQUEST_LOG_SIZE), { ...r, seq: n + i }));
      // Another process appended meanwhile: read the sequence again (a log may give up after a few).
      if ((await op.commit()).ok || attempt === 5) break;
    }
    rest = rest.slice(PER_COMMIT);
  }
}

/** An account's logged requests, newest first. */
export async function readRequests(kv: Deno.Kv, acct: string): Promise<RequestRecord[]> {
  const out: RequestRecord[] = [];
  for await (const e of kv.list<RequestRecord>({ prefix: key.requestLogs(acct) }, { batchSize: 500 })) {
    out.push(e.value);
  }
  return out.sort((a, b) => b.seq - a.seq);
}

/** Deletes an account's request log (the account is being deleted). */
export async function deleteRequests(kv: Deno.Kv, acct: string): Promise<void> {
  let op = kv.atomic().delete(key.requestLogSeq(acct));
  let n = 1;
  for await (const e of kv.list({ prefix: key.requestLogs(acct) })) {
    op.delete(e.key);
    if (++n === PER_COMMIT) {
      await op.commit();
      [op, n] = [kv.atomic(), 0];
    }
  }
  await op.commit();
}
