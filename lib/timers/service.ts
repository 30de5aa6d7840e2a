/** Timer use cases: validation beyond the schema, ownership, and conflict-safe state changes. */
import type { Config } from "../../config.ts";
import { type Principal, unauthorized } from "../accounts/auth.ts";
import { ApiError, notFound } from "../errors.ts";
import { newControlToken, newTimerId, sha256Hex, timingSafeEqual, withWriteId } from "../ids.ts";
import type { OnCommitted, Store, TimerChange } from "../kv/store.ts";
import type { Claim } from "../webhooks/lease.ts";
import { dropRetry, retriesToOldUrl } from "../webhooks/delivery_model.ts";
import { type PlanOptions, planTimerChange } from "./changes.ts";
import { followPlan } from "../rundowns/follow.ts";
import { isLiveItem, LiveItemError } from "../rundowns/model.ts";
import {
  type Action,
  actionForState,
  applyAction,
  CATCH_UP_EVENTS,
  catchUp,
  completionOnReset,
  DEFAULT_THEME,
  type Message,
  newTimer,
  type Theme,
  type Timer,
  type TimerEvent,
  type TimerState,
  type TimerType,
  TransitionError,
} from "./model.ts";
import { checkAdjust, newMessage, showFields, showUpdate } from "./show_input.ts";
import { applyAdjust } from "./show.ts";
import { parseTarget, reschedule } from "./reschedule.ts";
import { checkWebhookUrl } from "./webhook_url.ts";

export interface CreateInput {
  type: TimerType;
  title?: string | null;
  duration?: number;
  target_date?: string;
  work?: number;
  rest?: number;
  rounds?: number;
  theme?: Theme;
  color?: string;
  webhook_url?: string;
  warn_at?: number;
  danger_at?: number;
  overtime?: boolean;
  sound?: Timer["sound"];
}

export interface UpdateInput {
  title?: string | null;
  /** Countdown, while idle or stopped (reschedule.ts). */
  duration?: number;
  /** Event, until it completes or is stopped (reschedule.ts). */
  target_date?: string;
  theme?: Theme;
  color?: string;
  webhook_url?: string | null;
  warn_at?: number | null;
  danger_at?: number | null;
  overtime?: boolean;
  sound?: Timer["sound"];
}

/** A message as asked for (PUT /timers/:id/message). */
export interface MessageInput {
  text?: string;
  color?: Message["color"];
  flash?: number;
  blackout?: boolean;
}

/**
 * What the service tells this process's scheduler, passed explicitly (none: a CLI, whose
 * deliveries are written unclaimed and left to a scheduler's sweep).
 */
export interface SchedulerLink {
  /** The claim deliveries due at once are written with, to be sent by this process (null: unclaimed). */
  claim(now: number): Claim | null;
  /** Told of every commit: what it scheduled (instants to arm, deliveries born claimed). */
  committed: OnCommitted;
  /** Told before a timer is deleted: nothing of it is sent from this process after that. */
  dropped(timerId: string): void;
}

export class TimerService {
  constructor(
    readonly store: Store,
    readonly config: Config,
    readonly now: () => number,
    public link?: SchedulerLink,
  ) {}

  /** Told of every commit of this service (see SchedulerLink). */
  readonly committed: OnCommitted = (c) => this.link?.committed(c);

  /** Creates a timer; returns it with the control token, which is stored only as a hash. */
  async create(principal: Principal, input: CreateInput): Promise<{ timer: Timer; controlToken: string }> {
    const prepared = this.prepare(principal, input);
    return { timer: await this.commitNew(principal, prepared.change), controlToken: prepared.controlToken };
  }

  /**
   * A new timer's change, validated and planned but not written (a rundown validates all its items
   * before writing any). `extra`: fields the record carries beyond the input (its rundown).
   */
  prepare(
    principal: Principal,
    input: CreateInput,
    extra: Partial<Timer> = {},
  ): { change: TimerChange; controlToken: string } {
    const account = requireAccount(principal);
    const now = this.now();
    let duration: number | null = input.duration ?? null;
    let targetDate: string | null = null;
    let expires = now + this.config.timerTtlSeconds * 1000;
    if (input.type === "event") {
      const target = parseTarget(input.target_date!, now);
      targetDate = new Date(target).toISOString();
      duration = Math.ceil((target - now) / 1000);
      expires = Math.max(expires, target + 7 * 86400_000);
    }
    if (input.type === "interval") {
      duration = input.rounds === undefined ? null : input.rounds * (input.work! + input.rest!);
    }
    const webhook = input.webhook_url === undefined ? null : this.checkWebhookUrl(input.webhook_url);
    const controlToken = newControlToken();
    const timer = newTimer({
      id: newTimerId(),
      account_id: account.id,
      type: input.type,
      title: input.title ?? null,
      theme: input.theme ?? DEFAULT_THEME,
      color: (input.color ?? "6C63FF").toUpperCase(),
      webhook_url: webhook,
      duration,
      target_date: targetDate,
      work: input.work ?? null,
      rest: input.rest ?? null,
      rounds: input.type === "interval" ? input.rounds ?? null : null,
      control_token_hash: sha256Hex(controlToken),
      created_at: now,
      expires_at: expires,
      ...showFields(input, { type: input.type, duration, work: input.work ?? null }),
      ...extra,
    });
    return { change: this.#plan(null, null, timer, [], now), controlToken };
  }

  /** Writes a prepared timer within the plan's stored-timer limit. */
  async commitNew(principal: Principal, change: TimerChange): Promise<Timer> {
    const account = requireAccount(principal);
    const now = this.now();
    const limit = this.config.plans[account.plan].timers;
    const guard = principal.kind === "account" ? principal.guard : undefined;
    const created = await this.store.timers.createTimer(change, limit, now, guard, this.committed);
    if (created === "key gone") throw unauthorized("invalid or revoked API key");
    if (created === "limit") {
      throw new ApiError(
        403,
        `your ${account.plan} plan stores at most ${limit} timers; delete some or upgrade the plan`,
      );
    }
    return change.timer;
  }

  /** Reads a timer the principal may see (control tokens see only their own timer). */
  async get(principal: Principal, id: string): Promise<{ timer: Timer; versionstamp: string }> {
    const entry = await this.store.getTimer(id);
    if (!entry || entry.timer.expires_at <= this.now()) throw notFound();
    authorize(principal, entry.timer);
    return entry;
  }

  async update(principal: Principal, id: string, input: UpdateInput): Promise<Timer> {
    requireAccount(principal);
    const webhook = input.webhook_url === undefined || input.webhook_url === null
      ? input.webhook_url
      : this.checkWebhookUrl(input.webhook_url);
    for (;;) {
      const { timer, versionstamp } = await this.get(principal, id);
      const now = this.now();
      // Rescheduled first: thresholds are then checked against the new duration.
      const moved: Timer = { ...timer, ...reschedule(timer, input, now) };
      const next: Timer = {
        ...moved,
        ...(input.title !== undefined && { title: input.title }),
        ...(input.theme !== undefined && { theme: input.theme }),
        ...(input.color !== undefined && { color: input.color.toUpperCase() }),
        ...(webhook !== undefined && { webhook_url: webhook }),
        ...showUpdate(moved, input, now),
        version: timer.version + 1,
      };
      const change = this.#plan(timer, versionstamp, next, [], now);
      if (!await this.#commit(change)) continue;
      // Retries still pending to a URL the timer no longer notifies are dropped.
      if (next.webhook_url !== timer.webhook_url) await this.dropRetries(timer.id, next.webhook_url);
      return change.timer;
    }
  }

  /**
   * Replaces the timer's control token (a leaked or lost control URL): the old one stops working
   * at once, the new one is returned once and stored only as a hash.
   */
  async rotateControlToken(principal: Principal, id: string): Promise<{ timer: Timer; controlToken: string }> {
    requireAccount(principal);
    const controlToken = newControlToken();
    for (;;) {
      const { timer, versionstamp } = await this.get(principal, id);
      const next: Timer = { ...timer, control_token_hash: sha256Hex(controlToken), version: timer.version + 1 };
      const change = this.#plan(timer, versionstamp, next, [], this.now());
      if (await this.#commit(change)) return { timer: change.timer, controlToken };
    }
  }

  /**
   * Settles retries to any URL but `url` as failed, their log kept (split commits, each checked
   * against the delivery as read, so an attempt recorded meanwhile is read again). `timerId`: the
   * owner of the log (a timer, or a rundown: its deliveries are grouped under its id).
   */
  async dropRetries(timerId: string, url: string | null): Promise<void> {
    const store = this.store.deliveries;
    for (let n = 0; n < 5; n++) {
      const retries = retriesToOldUrl(await store.deliveryLog(timerId), url);
      if (!retries.length) return;
      const changes = retries.map(({ delivery, versionstamp }) => ({
        versionstamp,
        prev: delivery,
        next: dropRetry(delivery),
      }));
      if ((await store.commitDeliveries(changes, this.now(), false)).every(Boolean)) return;
    }
  }

  /**
   * Applies an action (or a target state) atomically: clock transitions due by now
   * are applied first, so their events are never lost, then the action.
   */
  async act(
    principal: Principal,
    id: string,
    body: { action?: Action; state?: TimerState; seconds?: number },
  ): Promise<Timer> {
    if (body.action === "adjust") checkAdjust(body.seconds);
    for (;;) {
      const { timer, versionstamp } = await this.get(principal, id);
      const now = this.now();
      const endpoints = await this.store.endpoints.of(timer.account_id, now);
      // Each event is delivered to every destination: a catch-up holds as many deliveries per commit as with one.
      const destinations = Math.max(1, endpoints.filter((e) => e.enabled).length + (timer.webhook_url ? 1 : 0));
      const caughtUp = catchUp(timer, now, Math.max(1, Math.floor(CATCH_UP_EVENTS / destinations)));
      if (caughtUp.events.length > 0 && catchUp(caughtUp.timer, now, 1).events.length > 0) {
        // A long-missed unlimited interval: commit this batch of round ends, then go on.
        await this.#commit(this.#plan(timer, versionstamp, caughtUp.timer, caughtUp.events, now));
        continue;
      }
      const action = body.action ?? actionForState(caughtUp.timer.state, body.state!)!;
      let result: { timer: Timer; events: TimerEvent[] };
      try {
        if (action === "adjust") result = applyAdjust(caughtUp.timer, body.seconds!, now);
        else {
          const { timer, event } = applyAction(caughtUp.timer, action, now);
          result = { timer, events: [event] };
        }
      } catch (e) {
        if (e instanceof TransitionError) throw new ApiError(409, e.message, body.action ? "action" : "state");
        throw e;
      }
      const events: TimerEvent[] = [...caughtUp.events, ...result.events];
      const completed = completionOnReset(result.timer, now);
      if (completed) events.push(completed.event);
      const change = this.#plan(timer, versionstamp, completed?.timer ?? result.timer, events, now);
      // An item of a rundown stopped in overtime may start the next one, in the same commit.
      const follow = change.timer.rundown_id ? await followPlan(this.store, change, this.#options(now)) : undefined;
      if (!follow ? await this.#commit(change) : await this.store.rundowns.commitChange(follow, now, this.committed)) {
        return change.timer;
      }
      if (follow && await this.#landed(change, this.store.rundowns.scheduled(follow, now))) return change.timer;
    }
  }

  /**
   * Shows a message on the timer's pages (null hides it): display state, so no event, no
   * deadline; the live stream carries it with the timer.
   */
  async setMessage(principal: Principal, id: string, input: MessageInput | null): Promise<Timer> {
    const message = input === null ? null : newMessage(input, this.now());
    for (;;) {
      const { timer, versionstamp } = await this.get(principal, id);
      const next: Timer = { ...timer, message, version: timer.version + 1 };
      const change = this.#plan(timer, versionstamp, next, [], this.now());
      if (await this.#commit(change)) return change.timer;
    }
  }

  /** The whole change of a transition: the timer as stored, its due entries and deliveries. */
  #plan(prev: Timer | null, versionstamp: string | null, next: Timer, events: TimerEvent[], now: number) {
    const written = { ...next, write_ids: withWriteId(next.write_ids) };
    return planTimerChange(prev, versionstamp, written, events, this.#options(now));
  }

  /**
   * How changes committed now are planned: deliveries due at once are sent by this process
   * (claimed), and events go to the account's endpoints as cached (loaded before planning events).
   */
  #options(now: number): PlanOptions {
    const claim = this.link?.claim(now) ?? null;
    return {
      now,
      claimUntil: claim?.until ?? null,
      claimBy: claim?.by,
      endpointsOf: (acct) => this.store.endpoints.cached(acct),
    };
  }

  /** The plan options of a change committed now (rundowns plan their items' changes with them). */
  planOptions(now: number): PlanOptions {
    return this.#options(now);
  }

  /**
   * Commits a change; false when the timer changed meanwhile (read again, decide again). A commit
   * refused that landed all the same — its answer lost and the call made again, the second try
   * failing on the first's write (Deno's KV Connect client, its server restarting) — is found by
   * its write id: applied again, an adjust would count twice, and a pause would answer 409.
   */
  async #commit(change: TimerChange): Promise<boolean> {
    if ((await this.store.timers.commitTimers([change], this.committed))[0] !== null) return true;
    return await this.#landed(change);
  }

  /**
   * Whether a change whose commit was refused landed all the same (see #commit): the stored
   * record carries its write id (kept by any write decided on it since). What the commit
   * scheduled is armed then (its deliveries were announced when the store found it landed).
   */
  async #landed(change: TimerChange, scheduled = this.store.timers.timerWrite(change).scheduled): Promise<boolean> {
    const stored = await this.store.getTimer(change.timer.id);
    if (!stored?.timer.write_ids?.includes(change.timer.write_ids!.at(-1)!)) return false;
    this.committed({ due: scheduled.due, born: [] });
    return true;
  }

  /**
   * Deletes a timer, unless it is a running rundown's live item (409): the show would wait on it.
   * Its rundown is checked in the delete's commit. `evenLiveItem`: the account's own deletion.
   */
  async delete(principal: Principal, id: string, o: { evenLiveItem?: boolean } = {}): Promise<void> {
    requireAccount(principal);
    await this.get(principal, id);
    const decided = async (t: Timer): Promise<Deno.AtomicCheck[]> => {
      if (!o.evenLiveItem && t.rundown_id) {
        const { entry, check } = await this.store.rundowns.getChecked(t.rundown_id);
        if (entry && isLiveItem(entry.rundown, id)) throw new LiveItemError(id, entry.rundown.id);
        this.link?.dropped(id);
        return [check];
      }
      this.link?.dropped(id);
      return [];
    };
    if (!await this.store.timers.deleteTimer(id, decided)) throw notFound();
  }

  /** A webhook URL must be absolute http(s); plain http only where the operator allows it (422 otherwise). */
  checkWebhookUrl(raw: string): string {
    return checkWebhookUrl(raw, this.config.webhookAllowPrivate);
  }
}

/** The calling account, or 401/403 for anonymous callers and control tokens. */
export function requireAccount(p: Principal) {
  if (p.kind === "account") return p.account;
  if (p.kind === "control") {
    throw new ApiError(403, "a control token can only read and drive its own timer or rundown");
  }
  throw unauthorized("missing API key: send Authorization: Bearer <API_KEY>");
}

/** Owners see their timers; a control token sees its one timer; everyone else gets 404. */
function authorize(p: Principal, t: Timer): void {
  if (p.kind === "account" && p.account.id === t.account_id) return;
  if (p.kind === "control" && timingSafeEqual(sha256Hex(p.token), t.control_token_hash)) return;
  if (p.kind === "control") throw unauthorized("the control token does not match this timer");
  if (p.kind === "anonymous") throw unauthorized("missing API key: send Authorization: Bearer <API_KEY>");
  throw notFound();
}
