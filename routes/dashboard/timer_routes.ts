/** /dashboard/timers…: the table (its live feed: timer_feed.ts), creation and editing from forms, actions, deliveries and test sends. */
import type { Hono, MiddlewareHandler } from "hono";
import { isTimeZone, parseTargetDate } from "../../lib/display.ts";
import { ApiError } from "../../lib/errors.ts";
import { LiveItemError } from "../../lib/rundowns/model.ts";
import { type Action, ACTIONS, type Timer } from "../../lib/timers/model.ts";
import { issuesToError } from "../../lib/timers/validation.ts";
import { redeliver, sendTestWebhook } from "../../lib/webhooks/manual.ts";
import { CreateTimerBody, UpdateTimerBody } from "../api/v1/schemas.ts";
import { type Ctx, flash, formOf, frameOf, html, langOf, type Once, safeBack, seeOther, takeFlash } from "./http.ts";
import type { Flash } from "./layout.tsx";
import { type DashboardDeps, PlanRefused } from "./mod.ts";
import type { DashEnv } from "./session.ts";
import { actionName, dashTexts } from "./texts.ts";
import { EDIT_FIELDS, timerDetailPage } from "./timer_detail.tsx";
import { noTimersNote } from "./overview.tsx";
import { type CreateForm, timerRow, timersPage } from "./timers.tsx";
import { filterOf, principalOf, timerFeed, timerRows } from "./timer_feed.ts";

/** Deliveries per page of a timer's page: ten fit a phone's screen or two. */
const DELIVERIES_PAGE = 10;

/**
 * A change made in the dashboard counts against the account's API rate limits, as the same change
 * through the API would: the dashboard is no way round them (each test send or redelivery is an
 * outbound request). A plan without the timers API has no timers here either (a downgraded account
 * may still delete its own).
 */
export function countedChanges(deps: Pick<DashboardDeps, "config" | "limiter">): MiddlewareHandler<DashEnv> {
  return async (c, next) => {
    if (c.req.method !== "POST") return await next();
    const { account } = c.get("session");
    const plan = deps.config.plans[account.plan];
    if (!plan.api && !/^\/dashboard\/timers\/[^/]+\/delete$/.test(c.req.path)) {
      throw new PlanRefused(`the ${account.plan} plan has no timers; the administrator of this service sets plans`);
    }
    let d = deps.limiter.check(`acct:${account.id}`, plan);
    if (d instanceof Promise) d = await d;
    if (!d.allowed) {
      const limit = d.window === "day" ? `${plan.per_day} requests per day` : `${plan.per_minute} requests per minute`;
      throw new ApiError(429, `rate limit of ${limit} exceeded; retry in ${d.retryAfter} s`, undefined, {
        "Retry-After": String(d.retryAfter),
      });
    }
    await next();
  };
}

/** The API's create body from the form: only the chosen type's fields, numbers where digits were typed. */
export function formToInput(v: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = { type: v.type ?? "" };
  const put = (k: string, val: unknown) => {
    if (val !== undefined && val !== "") out[k] = val;
  };
  const num = (s: string | undefined) => {
    const x = (s ?? "").trim();
    return /^-?\d+$/.test(x) ? Number(x) : x;
  };
  put("title", v.title?.trim());
  if (v.type === "countdown") put("duration", num(v.duration));
  if (v.type === "event" && v.target_date?.trim()) {
    const tz = v.timezone?.trim() || "UTC";
    if (!isTimeZone(tz)) {
      throw new ApiError(422, `timezone must be an IANA time zone such as Europe/Paris, got "${tz}"`, "timezone");
    }
    const ms = parseTargetDate(v.target_date.trim(), tz);
    put("target_date", ms === null ? v.target_date.trim() : new Date(ms).toISOString());
  }
  if (v.type === "interval") {
    put("work", num(v.work));
    put("rest", num(v.rest));
    put("rounds", num(v.rounds));
  }
  put("theme", v.theme);
  put("color", v.color?.trim().replace(/^#/, ""));
  put("webhook_url", v.webhook_url?.trim());
  return out;
}

/**
 * The API's PATCH body from the edit form: the fields sent whose value differs from the timer's
 * (so a webhook URL left as it was is not checked again); an empty title or webhook URL is null.
 */
export function editToInput(v: Record<string, string>, timer: Timer): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const typed = {
    title: v.title?.trim() || null,
    theme: v.theme,
    color: v.color?.trim().replace(/^#/, ""),
    webhook_url: v.webhook_url?.trim() || null,
  };
  const now = { title: timer.title, theme: timer.theme, color: timer.color, webhook_url: timer.webhook_url };
  for (const k of EDIT_FIELDS) {
    if (!(k in v)) continue;
    const same = k === "color" ? String(typed.color).toUpperCase() === now.color : typed[k] === now[k];
    if (!same) out[k] = typed[k];
  }
  return out;
}

/** `once`: where a new control link waits for the timer page's next GET (Post/Redirect/Get). */
export function timerRoutes(dash: Hono<DashEnv>, deps: DashboardDeps, once: Once) {
  const { store, config, now, timers: svc, scheduler } = deps;
  const rowsOf = timerRows(deps);
  timerFeed(dash, deps, rowsOf);

  // (Hono's "/timers/*" matches "/timers" too.)
  dash.use("/timers/*", countedChanges(deps));

  async function listPage(c: Ctx, form: CreateForm, status = 200) {
    const filter = filterOf((k) => c.req.query(k));
    const { rows, at, next } = await rowsOf(c.get("session").account.id, filter);
    const f = frameOf(c);
    const { account } = c.get("session");
    const noTimers = config.plans[account.plan].api ? undefined : noTimersNote(f, account.plan, config.operatorContact);
    return html(
      c,
      timersPage(f, { rows, at, filter, cursor: filter.cursor, next, flash: takeFlash(c), form, status, noTimers }),
      status,
    );
  }

  /** A timer's page: its row, facts and a page of deliveries; with a control token, its link, shown this once. */
  async function detail(c: Ctx, timer: Timer, o: {
    flash: Flash | null;
    controlToken?: string;
    edit?: CreateForm;
    deleteError?: string;
    status?: number;
  }) {
    const at = now();
    const page = await store.listDeliveries(timer.id, {
      limit: DELIVERIES_PAGE,
      cursor: c.req.query("cursor"),
      now: at,
    })
      .catch((e) => {
        if (e instanceof TypeError) throw new ApiError(400, "cursor is not one this page made");
        throw e;
      });
    const f = frameOf(c);
    // Answering a POST (…/edit, …/control): the language menu comes back to the page, not to the form's address.
    if (c.req.method === "POST") f.here = `/dashboard/timers/${encodeURIComponent(timer.id)}`;
    return html(
      c,
      timerDetailPage(f, {
        timer,
        row: timerRow(timer, at, config.siteUrl),
        at,
        siteUrl: config.siteUrl,
        deliveries: page.deliveries,
        next: page.next_cursor,
        flash: o.flash,
        controlUrl: o.controlToken && `${config.siteUrl}/c/${timer.id}#${o.controlToken}`,
        edit: o.edit,
        deleteError: o.deleteError,
      }),
      o.status ?? 200,
    );
  }

  dash.get("/timers", (c) => listPage(c, { values: {} }));

  dash.post("/timers", async (c) => {
    const values = await formOf(c);
    let created: { timer: Timer; controlToken: string };
    try {
      const input = formToInput(values);
      const parsed = CreateTimerBody.safeParse(input);
      if (!parsed.success) throw issuesToError(parsed.error.issues, input, 422);
      created = await svc.create(principalOf(c), parsed.data);
    } catch (e) {
      if (!(e instanceof ApiError) || e.status >= 500) throw e;
      return await listPage(c, { values, error: { message: e.message, field: e.field } }, e.status);
    }
    const { timer, controlToken } = created;
    flash(c, { kind: "ok", text: frameOf(c).t.tm_created.replace("{title}", timer.title ?? timer.id) });
    return await shownOnce(c, timer.id, controlToken);
  });

  /** Redirects to the timer's page, which shows its new control link once. */
  async function shownOnce(c: Ctx, id: string, controlToken: string) {
    const page = `/dashboard/timers/${encodeURIComponent(id)}`;
    await once.hold(c, page, { controlToken });
    return seeOther(c, page);
  }

  dash.get("/timers/:id", async (c) => {
    const { timer } = await svc.get(principalOf(c), c.req.param("id"));
    const held = await once.take<{ controlToken: string }>(c, `/dashboard/timers/${encodeURIComponent(timer.id)}`);
    return await detail(c, timer, { flash: takeFlash(c), controlToken: held?.controlToken });
  });

  // The new link is shown by the next GET only: a reload shows the page without it and replaces nothing.
  dash.post("/timers/:id/control", async (c) => {
    const { timer, controlToken } = await svc.rotateControlToken(principalOf(c), c.req.param("id"));
    flash(c, { kind: "ok", text: dashTexts(langOf(c)).dt_control_done });
    return await shownOnce(c, timer.id, controlToken);
  });

  /** Runs a form's change; a refusal the user can act on (409, 422) comes back as a message. */
  async function change(c: Ctx, back: string, run: () => Promise<string>) {
    try {
      flash(c, { kind: "ok", text: await run() });
    } catch (e) {
      if (!(e instanceof ApiError) || e.status >= 500 || e.status === 404 || e.status === 403) throw e;
      flash(c, { kind: "error", text: e.message });
    }
    return seeOther(c, back);
  }

  dash.post("/timers/:id/action", async (c) => {
    const id = c.req.param("id");
    const form = await formOf(c);
    const back = safeBack(form.back, `/dashboard/timers/${encodeURIComponent(id)}`);
    return await change(c, back, async () => {
      const action = form.action as Action;
      if (!(ACTIONS as readonly string[]).includes(action)) {
        throw new ApiError(422, `action must be one of ${ACTIONS.join(", ")}, got "${form.action ?? ""}"`, "action");
      }
      await svc.act(principalOf(c), id, { action });
      return dashTexts(langOf(c)).tm_done.replace("{action}", actionName(langOf(c), action));
    });
  });

  // PATCH /api/v1/timers/:id from a form: the same schema and TimerService.update, so the same rules and messages.
  dash.post("/timers/:id/edit", async (c) => {
    const id = c.req.param("id");
    const values = await formOf(c);
    const { timer } = await svc.get(principalOf(c), id);
    try {
      const input = editToInput(values, timer);
      const parsed = UpdateTimerBody.safeParse(input);
      if (!parsed.success) throw issuesToError(parsed.error.issues, input, 422);
      await svc.update(principalOf(c), id, parsed.data);
    } catch (e) {
      if (!(e instanceof ApiError) || e.status >= 500 || e.status === 404 || e.status === 403) throw e;
      const edit = { values, error: { message: e.message, field: e.field } };
      return await detail(c, timer, { flash: null, edit, status: e.status });
    }
    flash(c, { kind: "ok", text: dashTexts(langOf(c)).ed_saved });
    return seeOther(c, `/dashboard/timers/${encodeURIComponent(id)}`);
  });

  // Deleting asks first: the form's box must be ticked (the account's deletion asks for its email).
  dash.post("/timers/:id/delete", async (c) => {
    const id = c.req.param("id");
    if ((await formOf(c)).confirm !== "yes") {
      const { timer } = await svc.get(principalOf(c), id);
      return await detail(c, timer, {
        flash: null,
        deleteError: dashTexts(langOf(c)).dt_delete_unconfirmed,
        status: 422,
      });
    }
    const t = dashTexts(langOf(c));
    try {
      await svc.delete(principalOf(c), id);
    } catch (e) {
      // The API's rule (409): back to the timer's page, saying which show holds it and what to do.
      if (!(e instanceof LiveItemError)) throw e;
      flash(c, { kind: "error", text: t.dt_delete_live.replace("{rundown}", e.rundownId) });
      return seeOther(c, `/dashboard/timers/${encodeURIComponent(id)}`);
    }
    flash(c, { kind: "ok", text: t.tm_deleted });
    return seeOther(c, "/dashboard/timers");
  });

  dash.post("/timers/:id/test", async (c) => {
    const id = c.req.param("id");
    return await change(c, `/dashboard/timers/${encodeURIComponent(id)}`, async () => {
      const t = dashTexts(langOf(c));
      const { delivered, delivery } = await sendTestWebhook(svc, scheduler, principalOf(c), id);
      const a = delivery.attempts[0];
      if (delivered) return t.dt_test_ok.replace("{status}", String(a.status));
      throw new ApiError(422, t.dt_test_failed.replace("{error}", a.error ?? `HTTP ${a.status}`));
    });
  });

  dash.post("/timers/:id/deliveries/:did/redeliver", async (c) => {
    const id = c.req.param("id");
    return await change(c, `/dashboard/timers/${encodeURIComponent(id)}`, async () => {
      await redeliver(svc, principalOf(c), id, c.req.param("did"), deps.limiter);
      return dashTexts(langOf(c)).dt_redelivered;
    });
  });
}
