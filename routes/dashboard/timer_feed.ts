/** /dashboard/live: the timers table's live feed (server-sent events), and the table's rows and filter. */
import type { Hono } from "hono";
import type { Principal } from "../../lib/accounts/auth.ts";
import { ApiError } from "../../lib/errors.ts";
import { MAX_UNREAD_BYTES, placesUntilGone, sseResponse, streamsFull } from "../../lib/streams.ts";
import { TIMER_TYPES, type TimerType } from "../../lib/timers/model.ts";
import type { Ctx } from "./http.ts";
import type { DashboardDeps } from "./mod.ts";
import { ABSOLUTE_MS, type DashEnv } from "./session.ts";
import { STATES, timerRow } from "./timers.tsx";

/** Timers per page of the table. */
const PAGE = 50;
const LIVE_CHECK_MS = 1000;
const HEARTBEAT_MS = 15_000;
/** Live feeds open at once per account (each polls KV every second): tabs, not thousands. */
export const LIVE_FEEDS_PER_ACCOUNT = 20;

export const principalOf = (c: Ctx): Principal => ({ kind: "account", account: c.get("session").account });

export interface Filter {
  type: TimerType | "";
  state: string;
  cursor: string | null;
}

export function filterOf(q: (k: string) => string | undefined): Filter {
  const type = q("type") ?? "";
  const state = q("state") ?? "";
  return {
    type: (TIMER_TYPES as readonly string[]).includes(type) ? type as TimerType : "",
    state: (STATES as readonly string[]).includes(state) ? state : "",
    cursor: q("cursor") || null,
  };
}

/** A page of the account's timers as table rows, filtered by type (in KV) and state (now). */
export function timerRows({ store, config, now }: DashboardDeps) {
  return async (accountId: string, f: Filter) => {
    const at = now();
    const page = await store.listTimers(accountId, {
      type: f.type || undefined,
      limit: PAGE,
      cursor: f.cursor ?? undefined,
      now: at,
    }).catch((e) => {
      if (f.cursor && e instanceof TypeError) throw new ApiError(400, "cursor is not one this page made");
      throw e;
    });
    const rows = page.timers.map((t) => timerRow(t, at, config.siteUrl)).filter((r) =>
      !f.state || r.source.state === f.state
    );
    return { rows, at, next: page.next_cursor, versions: page.timers.map((t) => `${t.id}:${t.version}`) };
  };
}

type RowsOf = ReturnType<typeof timerRows>;

/**
 * The table's live feed: the rows again whenever a timer of the page changes, appears or goes
 * (checked every second; one stream per open table, whatever its length).
 */
export function timerFeed(dash: Hono<DashEnv>, deps: DashboardDeps, rowsOf: RowsOf) {
  const { store, config, now, timers: svc } = deps;
  /** Open live feeds by account. */
  const feeds = new Map<string, number>();

  dash.get("/live", (c) => {
    const accountId = c.get("session").account.id;
    const id = c.req.query("id");
    const filter = filterOf((k) => c.req.query(k));
    const principal = principalOf(c);
    const session = c.get("session").record.hash;
    const held = feeds.get(accountId) ?? 0;
    if (held >= LIVE_FEEDS_PER_ACCOUNT) {
      throw new ApiError(
        429,
        `at most ${LIVE_FEEDS_PER_ACCOUNT} live feeds may be open at once for one account; close a tab and reload`,
        undefined,
        { "Retry-After": "5" },
      );
    }
    // The process's places are shared with the viewers' /live streams (LIVE_STREAMS_MAX).
    const place = deps.streams.hold();
    if (!place) throw streamsFull(deps.streams.max);
    feeds.set(accountId, held + 1);
    // Served by Deno.serve, a feed keeps its places until its connection is done with (lib/streams.ts).
    const { release, dropped } = placesUntilGone(c, () => {
      place();
      const n = (feeds.get(accountId) ?? 1) - 1;
      if (n > 0) feeds.set(accountId, n);
      else feeds.delete(accountId);
    });
    const enc = new TextEncoder();
    let check: ReturnType<typeof setInterval> | undefined;
    let beat: ReturnType<typeof setInterval> | undefined;
    let last = "";
    let unregister = () => {};
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        const write = (s: string) => {
          try {
            controller.enqueue(enc.encode(s));
          } catch { /* closed */ }
          // Rows its browser has not read are dropped with the feed (an error drops the queue; a
          // close would keep it); a page that is still there reconnects (retry below).
          if ((controller.desiredSize ?? 0) < 0) {
            dropped();
            controller.error("dashboard feed dropped: its browser reads nothing"); // no stack in the log
            end();
          }
        };
        const end = () => {
          unregister();
          clearInterval(check);
          clearInterval(beat);
          release();
          try {
            controller.close();
          } catch { /* closed */ }
        };
        const poll = async () => {
          const at = now();
          // The feed lives no longer than its session: signed out (here or everywhere) or expired, it ends.
          const s = await store.users.getSession(session);
          if (!s || at - s.created_at >= ABSOLUTE_MS) return end();
          let rows, versions;
          if (id) {
            const one = await svc.get(principal, id).catch(() => null);
            rows = one ? [timerRow(one.timer, at, config.siteUrl)] : [];
            versions = one ? [`${one.timer.id}:${one.timer.version}`] : [];
          } else {
            ({ rows, versions } = await rowsOf(accountId, filter));
          }
          const mark = `${versions.join(",")}|${rows.map((r) => r.source.state).join(",")}`;
          if (mark === last) return;
          last = mark;
          write(`event: timers\ndata: ${JSON.stringify({ server_now: at, rows })}\n\n`);
        };
        write("retry: 2000\n\n");
        poll().catch(() => {});
        check = setInterval(() => poll().catch(() => {}), LIVE_CHECK_MS);
        beat = setInterval(() => write(": keep-alive\n\n"), HEARTBEAT_MS);
        // On shutdown the feed closes; the browser reconnects (retry above) to the next process.
        unregister = deps.streams.add(end);
      },
      cancel() {
        unregister();
        clearInterval(check);
        clearInterval(beat);
        release();
      },
    }, new ByteLengthQueuingStrategy({ highWaterMark: MAX_UNREAD_BYTES }));
    return sseResponse(body, false);
  });
}
