/** Rundown use cases: items checked and created, ownership, and conflict-safe actions. */
import { type Principal, unauthorized } from "../accounts/auth.ts";
import { ApiError, notFound } from "../errors.ts";
import { newControlToken, newRundownId, sha256Hex, timingSafeEqual, withWriteId } from "../ids.ts";
import type { NewRundownWrite, RundownChange, RundownEntry, TimerChange, TimerEntry } from "../kv/store.ts";
import { planTimerChange } from "../timers/changes.ts";
import { effective, isCounting, type Timer } from "../timers/model.ts";
import { type CreateInput, type MessageInput, requireAccount, type TimerService } from "../timers/service.ts";
import { newMessage } from "../timers/show_input.ts";
import { planAction, type RundownPlan } from "./actions.ts";
import { answer, rundownCap, RundownConflict } from "./refusals.ts";
import { rundownChange } from "./follow.ts";
import { MAX_ITEMS, type Rundown, type RundownAction, type RundownItem, type RundownMode } from "./model.ts";

/** An item as asked for: an existing timer of the account, or a countdown or interval to create. */
export type ItemInput = { timer_id: string } | CreateInput;

export interface RundownInput {
  title?: string | null;
  items: ItemInput[];
  mode?: RundownMode;
  webhook_url?: string | null;
}

export type RundownUpdate = Partial<RundownInput>;

/** A rundown with its items' timers as read (null: deleted or expired). */
export interface RundownRead extends RundownEntry {
  entries: (TimerEntry | null)[];
  timers: (Timer | null)[];
}

/** An item's field as errors name it: `items[2].duration`. */
const itemField = (i: number, field?: string) => `items[${i}]${field ? `.${field}` : ""}`;

export class RundownService {
  constructor(readonly timers: TimerService) {}

  get store() {
    return this.timers.store;
  }

  now(): number {
    return this.timers.now();
  }

  /** Creates a rundown; returns it with its control token, stored only as a hash. */
  async create(principal: Principal, input: RundownInput): Promise<{ read: RundownRead; controlToken: string }> {
    const account = requireAccount(principal);
    // Refused early when full already; the create's commit decides (two at once cannot both take the last place).
    const limit = this.timers.config.plans[account.plan].timers;
    if (limit !== null && await this.store.rundowns.count(account.id, limit) >= limit) throw rundownCap(account, limit);
    const id = newRundownId();
    const webhook = input.webhook_url ? this.timers.checkWebhookUrl(input.webhook_url) : null;
    const controlToken = newControlToken();
    const now = this.now();
    const rundown: Rundown = {
      id,
      account_id: account.id,
      title: input.title ?? null,
      mode: input.mode ?? "manual",
      webhook_url: webhook,
      items: [],
      current: 0,
      state: "idle",
      started_at: null,
      completed_at: null,
      control_token_hash: sha256Hex(controlToken),
      created_at: now,
      version: 1,
    };
    // Nothing is written by a refused commit: a creation that raced another of the account's tries again.
    for (let n = 0;; n++) {
      try {
        await this.#write(principal, { ...rundown }, null, input.items, null);
        break;
      } catch (e) {
        if (!(e instanceof RundownConflict) || n >= 4) throw e;
      }
    }
    return { read: await this.get(principal, id), controlToken };
  }

  /** Reads a rundown the principal may see, with its items' timers. */
  async get(principal: Principal, id: string): Promise<RundownRead> {
    const entry = await this.store.rundowns.get(id);
    if (!entry) throw notFound("rundown");
    authorize(principal, entry.rundown);
    const now = this.now();
    const entries = (await this.store.timers.getTimers(entry.rundown.items.map((i) => i.timer_id)))
      .map((e) => e && e.timer.expires_at > now ? e : null);
    return { ...entry, entries, timers: entries.map((e) => e?.timer ?? null) };
  }

  list(principal: Principal, opts: { limit: number; cursor?: string }) {
    return this.store.rundowns.list(requireAccount(principal).id, opts);
  }

  /** Changes title, mode, webhook_url, and the items (order; added; removed while not running). */
  async update(principal: Principal, id: string, input: RundownUpdate): Promise<RundownRead> {
    requireAccount(principal);
    const webhook = input.webhook_url ? this.timers.checkWebhookUrl(input.webhook_url) : input.webhook_url;
    const read = await this.get(principal, id);
    const next: Rundown = {
      ...read.rundown,
      ...(input.title !== undefined && { title: input.title }),
      ...(input.mode !== undefined && { mode: input.mode }),
      ...(webhook !== undefined && { webhook_url: webhook }),
      version: read.rundown.version + 1,
    };
    await this.#write(principal, next, read, input.items ?? null, read.versionstamp);
    // As a timer's: retries to the old URL are not sent once it changed (DECISIONS, webhooks).
    if (next.webhook_url !== read.rundown.webhook_url) await this.timers.dropRetries(id, next.webhook_url);
    return await this.get(principal, id);
  }

  /**
   * Writes a rundown and its item list: new timers are created first (each within the plan's
   * limit), then the rundown with the membership of its existing timers in one commit where it fits.
   */
  async #write(
    principal: Principal,
    rundown: Rundown,
    before: RundownRead | null,
    items: ItemInput[] | null,
    versionstamp: string | null,
  ): Promise<void> {
    const now = this.now();
    // Names this write: a commit refused that landed all the same is told by it (commitWithNew, #landed).
    rundown.write_ids = withWriteId(rundown.write_ids);
    let list: RundownItem[] = rundown.items;
    const kept = new Map((before?.rundown.items ?? []).map((item, i) => [item.timer_id, { item, i }]));
    const create: TimerChange[] = [];
    const join: TimerEntry[] = [];
    if (items) {
      if (items.length < 1 || items.length > MAX_ITEMS) {
        throw new ApiError(422, `items must hold 1 to ${MAX_ITEMS} items, got ${items.length}`, "items");
      }
      list = [];
      const seen = new Set<string>();
      for (const [i, input] of items.entries()) {
        if ("timer_id" in input) {
          if (seen.has(input.timer_id)) {
            throw new ApiError(422, `${itemField(i, "timer_id")} repeats ${input.timer_id}`, itemField(i, "timer_id"));
          }
          seen.add(input.timer_id);
          const own = kept.get(input.timer_id);
          if (own) list.push(own.item);
          else {
            join.push(await this.#joinable(rundown, input.timer_id, i));
            list.push({ timer_id: input.timer_id, created: false });
          }
        } else {
          const change = this.#prepare(principal, input, rundown.id, i);
          create.push(change);
          list.push({ timer_id: change.timer.id, created: true });
        }
      }
    }
    const inList = new Set(list.map((i) => i.timer_id));
    const removed = (before?.rundown.items ?? []).flatMap((item, i) => inList.has(item.timer_id) ? [] : [{ item, i }]);
    for (const { item, i } of removed) {
      const t = before!.timers[i];
      if (t && isCounting(effective(t, now))) {
        throw new ApiError(409, `item ${i} (${item.timer_id}) is running; stop it before removing it`, "items");
      }
    }
    if (before) {
      const live = before.rundown.items[before.rundown.current]?.timer_id;
      const at = list.findIndex((i) => i.timer_id === live);
      rundown.current = at >= 0 ? at : Math.max(0, Math.min(before.rundown.current, list.length - 1));
    }
    rundown.items = list;
    const opts = this.timers.planOptions(now);
    // Membership marks: the rundown's list decides; a mark only tells the clock to ask it.
    const mark = (e: TimerEntry, rundown_id: string | null) =>
      planTimerChange(
        e.timer,
        e.versionstamp,
        { ...e.timer, rundown_id, write_ids: withWriteId(e.timer.write_ids) },
        [],
        opts,
      );
    const marks = join.map((e) => mark(e, rundown.id));
    for (const { item, i } of removed) {
      const e = before!.entries[i];
      if (e && !item.created) marks.push(mark(e, null));
    }
    const change = { versionstamp, rundown, deliveries: [], timers: marks };
    const account = requireAccount(principal);
    // As many rundowns as the plan stores timers (each holds one at least; a deleted item's rundown stays).
    const limit = this.timers.config.plans[account.plan].timers;
    const o = {
      timers: limit,
      rundowns: limit,
      now,
      guard: principal.kind === "account" ? principal.guard : undefined,
      onCommitted: this.timers.committed,
      writeId: rundown.write_ids.at(-1),
    };
    const outcome = await this.store.rundowns.commitWithNew(change, create, o);
    if (outcome === "too large") await this.#writeInSteps(principal, change, create, o);
    else answer(outcome, account, limit, create.length);
    for (const { item } of removed) {
      if (item.created) {
        this.timers.link?.dropped(item.timer_id);
        await this.store.timers.deleteTimer(item.timer_id);
      }
    }
  }

  /**
   * Where one commit of the backend cannot hold the change (KV Connect's 10 checks): the new
   * timers first, each within the plan's limit, then the rundown; the new ones go again if it fails.
   */
  async #writeInSteps(principal: Principal, change: RundownChange, create: TimerChange[], o: NewRundownWrite) {
    const made: string[] = [];
    try {
      for (const c of create) made.push((await this.timers.commitNew(principal, c)).id);
      // The existing timers' marks (hints: a stale one is harmless), then the rundown within the account's limit.
      const marked = await this.store.timers.commitTimers(change.timers, this.timers.committed);
      if (!await this.#landed(change.timers.filter((_, n) => marked[n] === null))) throw new RundownConflict();
      answer(
        await this.store.rundowns.commitWithNew({ ...change, timers: [] }, [], o),
        requireAccount(principal),
        o.rundowns,
      );
    } catch (e) {
      for (const id of made) await this.store.timers.deleteTimer(id);
      throw e;
    }
  }

  /** An existing timer that may join: the account's, a countdown or interval, in no other live rundown. */
  async #joinable(rundown: Rundown, timerId: string, i: number): Promise<TimerEntry> {
    const field = itemField(i, "timer_id");
    const e = await this.store.getTimer(timerId);
    if (!e || e.timer.account_id !== rundown.account_id || e.timer.expires_at <= this.now()) {
      throw new ApiError(422, `${field}: no timer ${timerId} in your account`, field);
    }
    if (e.timer.type === "event") {
      throw new ApiError(422, `${field}: ${timerId} is an event timer; a rundown runs countdowns and intervals`, field);
    }
    const other = e.timer.rundown_id && e.timer.rundown_id !== rundown.id
      ? await this.store.rundowns.get(e.timer.rundown_id)
      : null;
    if (other?.rundown.items.some((x) => x.timer_id === timerId)) {
      throw new ApiError(409, `${field}: ${timerId} is an item of rundown ${other.rundown.id} already`, field);
    }
    return e;
  }

  /** A timer to create with the rundown; its validation errors name the item. */
  #prepare(principal: Principal, input: CreateInput, rundownId: string, i: number): TimerChange {
    if (input.type === "event") {
      throw new ApiError(422, `${itemField(i, "type")} must be countdown or interval`, itemField(i, "type"));
    }
    try {
      return this.timers.prepare(principal, input, { rundown_id: rundownId }).change;
    } catch (e) {
      if (e instanceof ApiError && e.status === 422) {
        throw new ApiError(422, `${itemField(i)}: ${e.message}`, itemField(i, e.field));
      }
      throw e;
    }
  }

  /** Applies an action atomically with the item timers it starts and stops. */
  async act(principal: Principal, id: string, action: RundownAction, index?: number): Promise<RundownRead> {
    let seen: number | null = null;
    for (;;) {
      const read = await this.get(principal, id);
      // Two operators pressing next at once move the show one item: a move decided on an item
      // that is no longer live is refused, not applied to the new one.
      if (seen !== null && read.rundown.current !== seen && (action === "next" || action === "previous")) {
        throw new ApiError(
          409,
          `cannot ${action}: the rundown moved meanwhile from item ${seen} to item ${read.rundown.current}`,
          "action",
        );
      }
      seen = read.rundown.current;
      const now = this.now();
      // The items' events go to the account's webhook endpoints too: known before planning.
      await this.store.endpoints.load([read.rundown.account_id], now);
      const plan: RundownPlan = planAction(read.rundown, read.timers, action, index, now);
      // Each record it writes named by this write, so a commit refused that landed is told (#landed).
      plan.rundown.write_ids = withWriteId(plan.rundown.write_ids);
      for (const item of plan.items.values()) {
        item.timer = { ...item.timer, write_ids: withWriteId(item.timer.write_ids) };
      }
      const change = rundownChange(read.versionstamp, plan, read.entries, this.timers.planOptions(now));
      const committed = await this.store.rundowns.commitChange(change, now, this.timers.committed);
      if (committed || await this.#landed(change.timers, change.rundown)) {
        if (!committed) this.timers.committed({ due: this.store.rundowns.scheduled(change, now).due, born: [] });
        return await this.get(principal, id);
      }
    }
  }

  /**
   * Whether writes refused landed all the same (their answers lost and the calls made again; Deno's
   * KV Connect client while its server restarts): each record stored carries its write's own id,
   * the last of its `write_ids`, kept by the writes decided on it since. Applied again instead, a
   * start or a next would answer 409 and a goto send its event twice. With the rundown found
   * written, a timer deleted since tells nothing against it (an item the action stopped, deleted
   * by another client meanwhile); a mark alone (no rundown) must be found.
   */
  async #landed(timers: TimerChange[], rundown?: Rundown): Promise<boolean> {
    const own = (ids: string[] | undefined, of: string[] | undefined) => !!ids && ids.includes(of!.at(-1)!);
    if (rundown && !own((await this.store.rundowns.get(rundown.id))?.rundown.write_ids, rundown.write_ids)) {
      return false;
    }
    const stored = await this.store.timers.getTimers(timers.map((c) => c.timer.id));
    return timers.every((c, n) => stored[n] ? own(stored[n].timer.write_ids, c.timer.write_ids) : !!rundown);
  }

  /** Replaces the control token (a lost or leaked control link): the old one stops working at once. */
  async rotateControlToken(principal: Principal, id: string): Promise<{ read: RundownRead; controlToken: string }> {
    requireAccount(principal);
    const controlToken = newControlToken();
    for (;;) {
      const read = await this.get(principal, id);
      const hash = sha256Hex(controlToken);
      const rundown: Rundown = { ...read.rundown, control_token_hash: hash, version: read.rundown.version + 1 };
      const change = { versionstamp: read.versionstamp, rundown, deliveries: [], timers: [] };
      if (await this.store.rundowns.commitChange(change, this.now())) {
        return { read: await this.get(principal, id), controlToken };
      }
    }
  }

  /**
   * Shows the show's message on the stage across items (null hides it): display state, so no
   * event and no webhook; the stage's stream carries it.
   */
  async setMessage(principal: Principal, id: string, input: MessageInput | null): Promise<RundownRead> {
    const message = input === null ? null : newMessage(input, this.now());
    for (;;) {
      const read = await this.get(principal, id);
      const rundown: Rundown = { ...read.rundown, message, version: read.rundown.version + 1 };
      const change = { versionstamp: read.versionstamp, rundown, deliveries: [], timers: [] };
      if (await this.store.rundowns.commitChange(change, this.now())) return await this.get(principal, id);
    }
  }

  /**
   * The live item's own controls for whoever may run the rundown (its control token included):
   * adjust its time, or set or clear its message. Answers the rundown as it is after.
   */
  async item(
    principal: Principal,
    id: string,
    change: { adjust: number } | { message: MessageInput | null },
  ): Promise<RundownRead> {
    const read = await this.get(principal, id);
    const r = read.rundown;
    const timer = read.timers[r.current];
    if (!timer) throw new ApiError(409, `the rundown has no live item (item ${r.current} has no timer)`, "current");
    // The rundown's credential stands for its owner on its item: the item's own token is not needed.
    const account = principal.kind === "account" ? principal.account : await this.store.getAccount(r.account_id);
    if (!account) throw notFound("rundown");
    const owner: Principal = { kind: "account", account };
    if ("adjust" in change) await this.timers.act(owner, timer.id, { action: "adjust", seconds: change.adjust });
    else await this.timers.setMessage(owner, timer.id, change.message);
    return await this.get(principal, id);
  }

  /** Deletes the rundown and the timers created with it; existing timers stay. */
  async delete(principal: Principal, id: string): Promise<void> {
    requireAccount(principal);
    // Its own deliveries queued here are dropped unsent, as a deleted timer's are, before the
    // delete commits; so it is read again until it commits (changed meanwhile: an advance) or is gone.
    let read = await this.get(principal, id);
    this.timers.link?.dropped(id);
    while (!await this.store.rundowns.delete(read)) read = await this.get(principal, id);
    for (const [i, item] of read.rundown.items.entries()) {
      if (item.created) {
        this.timers.link?.dropped(item.timer_id);
        await this.store.timers.deleteTimer(item.timer_id);
      } else await this.#unmark(read.entries[i], id);
    }
  }

  /** Clears an existing timer's membership mark (a stale one is harmless: the rundown's list decides). */
  async #unmark(entry: TimerEntry | null, rundownId: string): Promise<void> {
    for (let n = 0; entry?.timer.rundown_id === rundownId && n < 3; n++) {
      const now = this.now();
      const change = planTimerChange(entry.timer, entry.versionstamp, { ...entry.timer, rundown_id: null }, [], {
        ...this.timers.planOptions(now),
      });
      if ((await this.store.timers.commitTimers([change], this.timers.committed))[0]) return;
      entry = await this.store.getTimer(entry.timer.id);
    }
  }
}

/** Owners see their rundowns; a control token sees its one rundown; everyone else gets 404. */
function authorize(p: Principal, r: Rundown): void {
  if (p.kind === "account" && p.account.id === r.account_id) return;
  if (p.kind === "control" && timingSafeEqual(sha256Hex(p.token), r.control_token_hash)) return;
  if (p.kind === "control") throw unauthorized("the control token does not match this rundown");
  if (p.kind === "anonymous") throw unauthorized("missing API key: send Authorization: Bearer <API_KEY>");
  throw notFound("rundown");
}
