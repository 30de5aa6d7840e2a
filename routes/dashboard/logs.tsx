/**
 * The account's logs in the dashboard: every webhook delivery (filters by event type, status and
 * timer; paged; redeliver any) and the API request log (filter by status or request id).
 */
import type { Hono } from "hono";
import { ApiError } from "../../lib/errors.ts";
import type { Principal } from "../../lib/accounts/auth.ts";
import type { RequestRecord } from "../../lib/accounts/request_log.ts";
import type { Delivery } from "../../lib/kv/store.ts";
import { accountDeliveries, DELIVERY_STATES, redeliverById } from "../../lib/webhooks/delivery_log.ts";
import { DELIVERY_EVENTS } from "../api/v1/webhook_schemas.ts";
import { requestPage } from "../api/v1/logs.ts";
import { type Ctx, flash, formOf, frameOf, html, safeBack, seeOther, takeFlash } from "./http.ts";
import { CellLabel, dashPage, type Flash, type Frame, When } from "./layout.tsx";
import { DeliveryList } from "./delivery_items.tsx";
import type { DashboardDeps } from "./mod.ts";
import type { DashEnv } from "./session.ts";
import { countedChanges } from "./timer_routes.ts";

const DELIVERIES_PAGE = 20;
const REQUESTS_PAGE = 50;

export interface DeliveryFilter {
  event: string;
  status: string;
  timer_id: string;
}

/** The filters from the query, each dropped unless valid (a typo shows everything rather than an error). */
function deliveryFilterOf(q: (k: string) => string | undefined): DeliveryFilter {
  const event = q("event") ?? "", status = q("status") ?? "", timer = (q("timer_id") ?? "").trim();
  return {
    event: (DELIVERY_EVENTS as readonly string[]).includes(event) ? event : "",
    status: (DELIVERY_STATES as readonly string[]).includes(status) ? status : "",
    timer_id: /^(tmr|rdn)_[0-9A-Za-z]{16}$/.test(timer) ? timer : "",
  };
}

const query = (o: Record<string, string | null | undefined>) => {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(o)) if (v) p.set(k, v);
  const s = p.toString();
  return s ? `?${s}` : "";
};

export function deliveryLogPage(f: Frame, o: {
  filter: DeliveryFilter;
  deliveries: Delivery[];
  next: string | null;
  paged: boolean;
  flash: Flash | null;
}) {
  const { t } = f;
  const here = query({ ...o.filter });
  const back = `/dashboard/deliveries${here}`;
  return dashPage(f, {
    section: "deliveries",
    title: t.dl_title,
    flash: o.flash,
    children: (
      <>
        <p class="lede">{t.dl_lede}</p>
        <form method="get" action="/dashboard/deliveries" class="filters" aria-label={t.dl_filter}>
          <label class="field">
            <span>{t.dl_event}</span>
            <select name="event">
              <option value="">{t.tm_all}</option>
              {DELIVERY_EVENTS.map((e) => <option key={e} value={e} selected={o.filter.event === e}>{e}</option>)}
            </select>
          </label>
          <label class="field">
            <span>{t.dl_state}</span>
            <select name="status">
              <option value="">{t.tm_all}</option>
              {DELIVERY_STATES.map((s) => (
                <option key={s} value={s} selected={o.filter.status === s}>{t[`ds_${s}`]}</option>
              ))}
            </select>
          </label>
          <label class="field">
            <span>{t.dl_timer}</span>
            <input
              type="text"
              name="timer_id"
              value={o.filter.timer_id}
              placeholder="tmr_…"
              aria-label={t.dl_timer_hint}
              size={22}
              maxLength={64}
            />
          </label>
          <button type="submit" class="button button--quiet">{t.dl_filter}</button>
          {here && <a href="/dashboard/deliveries">{t.dl_clear}</a>}
        </form>
        <section class="card" aria-label={t.dl_title}>
          {o.deliveries.length === 0 ? <p>{o.next ? t.dl_none_yet : t.dl_none}</p> : (
            <DeliveryList
              f={f}
              deliveries={o.deliveries}
              timerLink
              action={(d) =>
                `/dashboard/deliveries/${encodeURIComponent(d.id)}/redeliver?back=${encodeURIComponent(back)}`}
            />
          )}
          {(o.paged || o.next) && (
            <p class="pager">
              {o.paged && <a href={back}>{t.tm_newest}</a>}
              {o.next && <a href={`/dashboard/deliveries${query({ ...o.filter, cursor: o.next })}`}>{t.dl_more}</a>}
            </p>
          )}
        </section>
      </>
    ),
  });
}

export function requestLogPage(f: Frame, o: {
  status: string;
  requestId: string;
  requests: RequestRecord[];
  next: string | null;
  paged: boolean;
}) {
  const { t } = f;
  const filters = { status: o.status, request_id: o.requestId };
  return dashPage(f, {
    section: "requests",
    title: t.rq_title,
    children: (
      <>
        <p class="lede">{t.rq_lede}</p>
        <form method="get" action="/dashboard/requests" class="filters" aria-label={t.dl_filter}>
          <label class="field">
            <span>{t.rq_status}</span>
            <input
              type="text"
              name="status"
              value={o.status}
              placeholder="4xx"
              aria-label={t.rq_status_hint}
              size={6}
              maxLength={3}
            />
          </label>
          <label class="field">
            <span>{t.rq_request_id}</span>
            <input type="text" name="request_id" value={o.requestId} size={24} maxLength={64} />
          </label>
          <button type="submit" class="button button--quiet">{t.dl_filter}</button>
          {(o.status || o.requestId) && <a href="/dashboard/requests">{t.dl_clear}</a>}
        </form>
        {o.requests.length === 0 ? <p>{t.rq_none}</p> : (
          <table class="requests cards">
            <caption class="sr-only">{t.rq_title}</caption>
            <thead>
              <tr>
                <th scope="col">{t.rq_time}</th>
                <th scope="col">{t.rq_path}</th>
                <th scope="col">{t.rq_status}</th>
                <th scope="col" class="num">{t.dt_duration}</th>
                <th scope="col">{t.rq_key}</th>
                <th scope="col">{t.rq_request_id}</th>
              </tr>
            </thead>
            <tbody>
              {o.requests.map((r) => (
                <tr key={r.seq} data-request={r.request_id} data-status={r.status}>
                  <td>
                    <CellLabel>{t.rq_time}</CellLabel>
                    <When ms={r.at} f={f} />
                  </td>
                  <td class="request-path">
                    <CellLabel>{t.rq_path}</CellLabel>
                    <code>
                      <strong>{r.method}</strong> {r.path}
                    </code>
                  </td>
                  <td>
                    <CellLabel>{t.rq_status}</CellLabel>
                    <span class={`http http--${Math.floor(r.status / 100)}xx`}>{r.status}</span>
                  </td>
                  <td class="num">
                    <CellLabel>{t.dt_duration}</CellLabel>
                    {new Intl.NumberFormat(f.lang).format(r.duration_ms)} ms
                  </td>
                  <td>
                    <CellLabel>{t.rq_key}</CellLabel>
                    {r.key_prefix ? <code>{r.key_prefix}…</code> : <span class="muted">{t.rq_control}</span>}
                  </td>
                  <td>
                    <CellLabel>{t.rq_request_id}</CellLabel>
                    <code class="small">{r.request_id}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {(o.paged || o.next) && (
          <p class="pager">
            {o.paged && <a href={`/dashboard/requests${query(filters)}`}>{t.tm_newest}</a>}
            {o.next && <a href={`/dashboard/requests${query({ ...filters, cursor: o.next })}`}>{t.rq_more}</a>}
          </p>
        )}
      </>
    ),
  });
}

const principalOf = (c: Ctx): Principal => ({ kind: "account", account: c.get("session").account });

/** Mounts /dashboard/deliveries and /dashboard/requests. */
export function logRoutes(dash: Hono<DashEnv>, deps: DashboardDeps) {
  const { timers: svc, requestLog } = deps;
  dash.use("/deliveries/*", countedChanges(deps));

  dash.get("/deliveries", async (c) => {
    const filter = deliveryFilterOf((k) => c.req.query(k));
    const cursor = c.req.query("cursor") || undefined;
    const page = await accountDeliveries(svc, principalOf(c), {
      limit: DELIVERIES_PAGE,
      cursor,
      event: filter.event || undefined,
      state: (filter.status || undefined) as Delivery["state"] | undefined,
      timer_id: filter.timer_id || undefined,
    });
    return html(
      c,
      deliveryLogPage(frameOf(c), {
        filter,
        deliveries: page.deliveries,
        next: page.next_cursor,
        paged: cursor !== undefined,
        flash: takeFlash(c),
      }),
    );
  });

  dash.post("/deliveries/:did/redeliver", async (c) => {
    const back = safeBack(c.req.query("back") ?? (await formOf(c)).back, "/dashboard/deliveries");
    try {
      await redeliverById(svc, principalOf(c), c.req.param("did"), deps.limiter);
      flash(c, { kind: "ok", text: frameOf(c).t.dt_redelivered });
    } catch (e) {
      if (!(e instanceof ApiError) || e.status >= 500 || e.status === 403) throw e;
      flash(c, { kind: "error", text: e.message });
    }
    return seeOther(c, back);
  });

  dash.get("/requests", async (c) => {
    const status = (c.req.query("status") ?? "").trim();
    const requestId = (c.req.query("request_id") ?? "").trim();
    const cursor = c.req.query("cursor") || undefined;
    const page = await requestPage(requestLog, c.get("session").account.id, {
      status: /^([1-5][0-9][0-9]|[1-5]xx)$/.test(status) ? status : undefined,
      request_id: /^[\w.-]{1,64}$/.test(requestId) ? requestId : undefined,
      limit: REQUESTS_PAGE,
      cursor,
    });
    return html(
      c,
      requestLogPage(frameOf(c), {
        status,
        requestId,
        requests: page.requests,
        next: page.next_cursor,
        paged: cursor !== undefined,
      }),
    );
  });
}
