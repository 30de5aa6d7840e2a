/**
 * A rundown as data: an ordered list of timers run one after another, its state, the view a client
 * reads (planned and expected starts, how far the show runs behind) and the events it emits. Pure.
 */
import { ApiError } from "../errors.ts";
import { newEventId } from "../ids.ts";
import { effective, isCounting, iso, type Message, remainingSeconds, type Timer } from "../timers/model.ts";
import type { Delivery, WebhookPayload } from "../webhooks/delivery_model.ts";

export const RUNDOWN_MODES = ["manual", "linked"] as const;
export type RundownMode = typeof RUNDOWN_MODES[number];
export const RUNDOWN_STATES = ["idle", "running", "stopped", "completed"] as const;
export type RundownState = typeof RUNDOWN_STATES[number];
export const RUNDOWN_ACTIONS = ["start", "next", "previous", "goto", "stop", "reset"] as const;
export type RundownAction = typeof RUNDOWN_ACTIONS[number];
/** Items a rundown holds at most. */
export const MAX_ITEMS = 100;

export interface RundownItem {
  timer_id: string;
  /** Created with the rundown (deleted with it); otherwise an existing timer, left when the rundown goes. */
  created: boolean;
}

/** A rundown as stored. Instants are epoch milliseconds. */
export interface Rundown {
  id: string;
  account_id: string;
  title: string | null;
  mode: RundownMode;
  webhook_url: string | null;
  items: RundownItem[];
  /** The index of the live (or cued) item. */
  current: number;
  state: RundownState;
  /** When the show started (its first start since creation or reset): the base of the planned starts. */
  started_at: number | null;
  completed_at: number | null;
  control_token_hash: string;
  created_at: number;
  version: number;
  /** The show's message, shown on the stage across items (an item's own message wins while set). */
  message?: Message | null;
  /** As Timer.write_ids: the API's writes that last changed it, so a refused commit that landed is told. */
  write_ids?: string[];
}

export const RUNDOWN_EVENT_TYPES = ["rundown.started", "rundown.advanced", "rundown.completed"] as const;
export type RundownEventType = typeof RUNDOWN_EVENT_TYPES[number];

export interface RundownEvent {
  type: RundownEventType;
  at: number;
  data: Record<string, unknown>;
}

/** An item as events name it. */
export const itemRef = (index: number, t: Timer | null | undefined) => ({
  index,
  timer_id: t?.id ?? null,
  title: t?.title ?? null,
});

/** Planned length of an item in ms (an unlimited interval plans none). */
const plannedMs = (t: Timer | null) => ((t?.duration ?? 0) + Math.round((t?.added_ms ?? 0) / 1000)) * 1000;

/** When the current item ends as things stand at `now`. */
function expectedEnd(t: Timer | null, start: number, now: number): number {
  if (!t) return start;
  const e = effective(t, now);
  if (e.state === "completed") return e.completed_at ?? now;
  if (e.state === "stopped") return e.stopped_at ?? now;
  if (e.state === "idle") return Math.max(start, now) + plannedMs(e);
  if (e.ended) return now; // in overtime: it ends when someone stops it
  const left = remainingSeconds(e, now);
  return now + (left ?? 0) * 1000;
}

/** Planned and expected starts per item and the show's offset (positive: running late), at `now`. */
export function schedule(r: Rundown, timers: (Timer | null)[], now: number) {
  const base = r.started_at ?? now;
  const planned: number[] = [];
  let at = base;
  for (const t of timers) {
    planned.push(at);
    at += plannedMs(t);
  }
  const expected: number[] = [];
  const cur = timers[r.current] ?? null;
  const curStart = cur?.started_at ?? (r.state === "running" ? now : Math.max(now, planned[r.current] ?? now));
  // A running show whose live item has finished waits for the operator: it moves on no earlier than now.
  const ended = expectedEnd(cur, curStart, now);
  const curEnd = r.state === "running" ? Math.max(ended, now) : ended;
  let next = curEnd;
  timers.forEach((t, i) => {
    if (i < r.current) expected.push(t?.started_at ?? planned[i]);
    else if (i === r.current) expected.push(curStart);
    else {
      expected.push(next);
      next += plannedMs(t);
    }
  });
  const plannedEnd = (planned[r.current] ?? base) + plannedMs(cur);
  const offset = timers.length ? Math.round((curEnd - plannedEnd) / 1000) : 0;
  return { planned, expected, offset_seconds: offset };
}

/** Public URLs of a rundown. */
export function rundownUrls(siteUrl: string, id: string) {
  return { stage_url: `${siteUrl}/r/${id}`, agenda_url: `${siteUrl}/r/${id}/agenda` };
}

/** What a client reads: the rundown and its items as they are at `now`. */
export function rundownView(r: Rundown, timers: (Timer | null)[], now: number, siteUrl: string, owner: boolean) {
  const s = schedule(r, timers, now);
  const view: Record<string, unknown> = {
    rundown_id: r.id,
    title: r.title,
    mode: r.mode,
    state: r.state,
    current: r.current,
    offset_seconds: s.offset_seconds,
    items: r.items.map((item, i) => {
      const t = timers[i] ? effective(timers[i]!, now) : null;
      return {
        timer_id: item.timer_id,
        title: t?.title ?? null,
        type: t?.type ?? null,
        state: t?.state ?? "missing",
        duration: t?.duration ?? null,
        remaining_seconds: t ? remainingSeconds(t, now) : null,
        message: t?.message ?? null,
        created_with_rundown: item.created,
        planned_start: iso(s.planned[i]),
        expected_start: iso(s.expected[i]),
      };
    }),
    started_at: iso(r.started_at),
    completed_at: iso(r.completed_at),
    message: r.message ?? null,
    ...rundownUrls(siteUrl, r.id),
    created_at: iso(r.created_at),
  };
  if (owner) view.webhook_url = r.webhook_url;
  return view;
}

/** Whether `timerId` is the item a running show is on: its timer must stay while the show waits on it. */
export function isLiveItem(r: Rundown, timerId: string): boolean {
  return r.state === "running" && r.items[r.current]?.timer_id === timerId;
}

/** Deleting the live item's timer would leave the show waiting on a timer that no longer exists. */
export class LiveItemError extends ApiError {
  constructor(readonly timerId: string, readonly rundownId: string) {
    super(
      409,
      `timer ${timerId} is the live item of rundown ${rundownId}; stop the rundown or move it on ` +
        "(next, previous or goto) first, then delete the timer",
    );
  }
}

/** Whether a timer change finishes a running item: completes it, or stops it in overtime. */
export function finishes(prev: Timer | null, next: Timer): number | null {
  if (!prev || (prev.state !== "running" && prev.state !== "paused")) return null;
  if (next.state === "completed") return next.completed_at;
  if (next.state === "stopped" && next.ended && !isCounting(next)) return next.stopped_at;
  return null;
}

/**
 * The delivery of a rundown event to the rundown's webhook. Deliveries are grouped by their
 * owner's id, so a rundown's log and retries live beside its timers' (keyed by the rundown id).
 */
export function rundownDelivery(
  r: Rundown,
  ev: RundownEvent,
  now: number,
  claimUntil: number | null,
  claimBy?: string,
  to?: { url: string; endpoint_id: string },
): Delivery {
  const id = newEventId(ev.at);
  const payload = {
    id,
    event: ev.type,
    timestamp: new Date(ev.at).toISOString(),
    rundown_id: r.id,
    title: r.title,
    data: ev.data,
  };
  return {
    id,
    timer_id: r.id,
    account_id: r.account_id,
    url: to?.url ?? r.webhook_url!,
    ...(to && { endpoint_id: to.endpoint_id }),
    // Signed and sent as it is: the sender reads only id and serialises the rest.
    payload: payload as unknown as WebhookPayload,
    state: "pending",
    attempts: [],
    next_attempt_at: claimUntil ?? now,
    ...(claimUntil !== null && { claimed: true }),
    ...(claimUntil !== null && claimBy !== undefined && { claimed_by: claimBy }),
    created_at: now,
  };
}
