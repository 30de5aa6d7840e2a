/**
 * The Webhooks tab's "Endpoints" section: the account's webhook endpoints, added, edited,
 * disabled and deleted from forms. Every POST redirects (Post/Redirect/Get); a refused form
 * comes back once, with what was typed and why, through `once`.
 */
import type { Hono, MiddlewareHandler } from "hono";
import { undoIfLoggedOut } from "../../lib/accounts/first_proof.ts";
import { ApiError } from "../../lib/errors.ts";
import type { EventType as TimerEventType } from "../../lib/timers/model.ts";
import { RUNDOWN_EVENT_TYPES } from "../../lib/rundowns/model.ts";
import { type Endpoint, type EndpointInput, MAX_ENDPOINTS } from "../../lib/webhooks/endpoints.ts";
import { WEBHOOK_EVENTS } from "../api/v1/webhook_schemas.ts";
import { sendEndpointExample } from "../../lib/webhooks/examples.ts";
import { type Ctx, flash, formOf, frameOf, type Once, seeOther } from "./http.ts";
import { type Frame, PostForm } from "./layout.tsx";
import { type DashboardDeps, PlanRefused } from "./mod.ts";
import type { DashEnv } from "./session.ts";

const PAGE = "/dashboard/webhooks";
/** Where a refused endpoint form waits for the page's next GET. */
export const ENDPOINT_FORM = "/dashboard/webhooks#endpoints";
const TIMER_EVENTS = WEBHOOK_EVENTS.filter((e) => e !== "webhook.test") as TimerEventType[];
/** What an endpoint may ask for; examples are sent of timer events only. */
const EVENT_TYPES = [...TIMER_EVENTS, ...RUNDOWN_EVENT_TYPES];
const fill = (text: string, parts: Record<string, string>) => text.replace(/\{(\w+)\}/g, (m, k) => parts[k] ?? m);

/** A refused form as typed, with the reason (`id`: the endpoint being edited; none: the add form). */
export interface EndpointForm {
  id?: string;
  values: Record<string, string>;
  error: { message: string; field?: string };
}

/** The API's body from a form: the URL, the description, "all" or the ticked event types, enabled. */
export function formToEndpoint(v: Record<string, string>): EndpointInput {
  const chosen = EVENT_TYPES.filter((e) => v[`ev.${e}`] === "on");
  if (v.events === "some" && chosen.length === 0) {
    throw new ApiError(422, "tick at least one event type, or choose all events", "events");
  }
  const description = (v.description ?? "").trim();
  if ([...description].length > 200) {
    throw new ApiError(422, "description must be at most 200 characters", "description");
  }
  const url = (v.url ?? "").trim();
  if (!url) throw new ApiError(422, "url is required: an absolute https URL", "url");
  return { url, description, events: v.events === "some" ? chosen : "all", enabled: v.enabled === "on" };
}

function EndpointFields(
  { f, prefix, values, error }: {
    f: Frame;
    prefix: string;
    values: Record<string, string>;
    error?: EndpointForm["error"];
  },
) {
  const { t } = f;
  const bad = (name: string) => error?.field === name ? "true" : undefined;
  return (
    <>
      {error && <p id={`${prefix}-error`} class="flash flash--error" role="alert">{error.message}</p>}
      <div class="grid">
        <label class="field">
          <span>{t.ep_url}</span>
          <input
            name="url"
            type="url"
            required
            value={values.url ?? ""}
            placeholder="https://example.com/hooks/timers"
            aria-invalid={bad("url")}
            autofocus={error?.field === "url" || undefined}
          />
        </label>
        <label class="field">
          <span>{t.ep_description}</span>
          <input
            name="description"
            maxLength={200}
            value={values.description ?? ""}
            aria-invalid={bad("description")}
          />
        </label>
      </div>
      <fieldset aria-invalid={bad("events")}>
        <legend>{t.ep_events}</legend>
        <label class="check">
          <input type="radio" name="events" value="all" checked={values.events !== "some"} /> {t.ep_events_all}
        </label>{" "}
        <label class="check">
          <input type="radio" name="events" value="some" checked={values.events === "some"} /> {t.ep_events_some}
        </label>
        <div class="grid grid--3">
          {EVENT_TYPES.map((e) => (
            <label key={e} class="check">
              <input type="checkbox" name={`ev.${e}`} value="on" checked={values[`ev.${e}`] === "on"} />{" "}
              <code>{e}</code>
            </label>
          ))}
        </div>
      </fieldset>
      <label class="enabled">
        <input type="checkbox" name="enabled" value="on" checked={values.enabled === "on"} /> {t.ep_enabled}
      </label>
    </>
  );
}

/** What an endpoint's edit form starts from. */
function valuesOf(e: Endpoint): Record<string, string> {
  const v: Record<string, string> = {
    url: e.url,
    description: e.description,
    events: e.events === "all" ? "all" : "some",
  };
  if (e.events !== "all") { for (const ev of e.events) v[`ev.${ev}`] = "on"; }
  if (e.enabled) v.enabled = "on";
  return v;
}

/** The section: the endpoints, each with its forms, then the add form (while there is room). */
export function EndpointsSection({ f, endpoints, form }: { f: Frame; endpoints: Endpoint[]; form?: EndpointForm }) {
  const { t } = f;
  const addValues = form && !form.id ? form.values : { enabled: "on", events: "all" };
  return (
    <section id="endpoints" class="card" aria-labelledby="endpoints-heading">
      <h2 id="endpoints-heading">{t.ep_title}</h2>
      <p class="muted">{t.ep_lede}</p>
      {endpoints.length === 0 && <p>{t.ep_none}</p>}
      {endpoints.map((e) => {
        const editing = form?.id === e.id;
        const base = `/dashboard/webhooks/endpoints/${encodeURIComponent(e.id)}`;
        return (
          <article key={e.id} class="endpoint" data-endpoint={e.id}>
            <h3>
              <code>{e.url}</code> <span class="badge">{e.enabled ? t.ep_on : t.ep_off}</span>
            </h3>
            {e.description && <p>{e.description}</p>}
            <p class="muted">
              {t.ep_events}: {e.events === "all" ? t.ep_events_all : e.events.join(", ")}
            </p>
            <details open={editing || undefined}>
              <summary>{t.ep_edit}</summary>
              <PostForm f={f} action={base} class="endpoint-form">
                <EndpointFields
                  f={f}
                  prefix={`edit-${e.id}`}
                  values={editing ? form!.values : valuesOf(e)}
                  error={editing ? form!.error : undefined}
                />
                <button type="submit" class="button">{t.ep_save}</button>
              </PostForm>
            </details>
            <div class="endpoint-actions">
              <PostForm f={f} action={`${base}/${e.enabled ? "disable" : "enable"}`}>
                <button type="submit" class="button button--quiet">{e.enabled ? t.ep_disable : t.ep_enable}</button>
              </PostForm>
              <PostForm f={f} action={`${base}/example`} class="endpoint-example">
                <label>
                  <span class="sr-only">{t.ep_example_event}</span>
                  <select name="event" aria-label={t.ep_example_event}>
                    {[...TIMER_EVENTS, "webhook.test"].map((ev) => <option key={ev} value={ev}>{ev}</option>)}
                  </select>
                </label>
                <button type="submit" class="button button--quiet">{t.ep_example}</button>
              </PostForm>
              <PostForm f={f} action={`${base}/delete`}>
                <button type="submit" class="button button--quiet">{t.ep_delete}</button>
              </PostForm>
            </div>
          </article>
        );
      })}
      {endpoints.length < MAX_ENDPOINTS
        ? (
          <>
            <h3>{t.ep_add}</h3>
            <PostForm f={f} action="/dashboard/webhooks/endpoints" class="endpoint-form">
              <EndpointFields
                f={f}
                prefix="add-endpoint"
                values={addValues}
                error={form && !form.id ? form.error : undefined}
              />
              <button type="submit" class="button">{t.ep_add}</button>
            </PostForm>
          </>
        )
        : <p class="muted">{t.ep_full.replace("{max}", String(MAX_ENDPOINTS))}</p>}
    </section>
  );
}

/**
 * POST routes of the section; each redirects to the Webhooks tab. An endpoint is a lasting feed of
 * the account's events: adding one or editing one (its URL) sits behind `fresh`, the dashboard's
 * recent sign-in check, as creating a key does; enabling, disabling, examples and deleting do not.
 */
export function endpointRoutes(
  dash: Hono<DashEnv>,
  deps: DashboardDeps,
  once: Once,
  fresh: MiddlewareHandler<DashEnv>,
) {
  const { endpoints: svc, config } = deps;
  const account = (c: Ctx) => {
    const a = c.get("session").account;
    // Endpoints carry timers' events: a plan without timers has none (as through the API).
    if (!config.plans[a.plan].api) {
      throw new PlanRefused(`the ${a.plan} plan has no timers; the administrator of this service sets plans`);
    }
    return a.id;
  };
  /**
   * Runs a change; a refusal of the user's comes back once to the form it came from, with what was
   * typed (`form`: the endpoint edited, "" the add form, null a button: a flash says it).
   */
  async function change(c: Ctx, form: string | null, run: (values: Record<string, string>) => Promise<string>) {
    const values = await formOf(c);
    try {
      flash(c, { kind: "ok", text: await run(values) });
    } catch (e) {
      if (!(e instanceof ApiError) || e.status >= 500 || e.status === 403 || e.status === 401) throw e;
      if (form === null) flash(c, { kind: "error", text: e.message });
      else {
        const held: EndpointForm = { ...(form && { id: form }), values, error: { message: e.message, field: e.field } };
        await once.hold(c, ENDPOINT_FORM, held);
      }
    }
    return seeOther(c, `${PAGE}#endpoints`);
  }
  const t = (c: Ctx) => frameOf(c).t;

  // Whether the session is still there (a first proof may have ended it while the request was under way).
  const signedIn = (c: Ctx) => async () => (await deps.store.users.getSession(c.get("session").record.hash)) !== null;

  dash.post("/webhooks/endpoints", fresh, (c) =>
    change(c, "", async (v) => {
      const acct = account(c);
      const input = formToEndpoint(v);
      const e = await undoIfLoggedOut(signedIn(c), () => svc.create(acct, input), (e) => svc.delete(acct, e.id));
      return t(c).ep_added.replace("{url}", e.url);
    }));
  dash.post("/webhooks/endpoints/:id", fresh, (c) =>
    change(c, c.req.param("id"), async (v) => {
      const e = await svc.update(account(c), c.req.param("id"), formToEndpoint(v));
      return t(c).ep_saved.replace("{url}", e.url);
    }));
  for (const [path, enabled] of [["enable", true], ["disable", false]] as const) {
    dash.post(`/webhooks/endpoints/:id/${path}`, (c) =>
      change(c, null, async () => {
        const e = await svc.update(account(c), c.req.param("id"), { enabled });
        return (enabled ? t(c).ep_enabled_now : t(c).ep_disabled_now).replace("{url}", e.url);
      }));
  }
  dash.post("/webhooks/endpoints/:id/example", (c) =>
    change(c, null, async (v) => {
      const event = ([...TIMER_EVENTS, "webhook.test"] as const).find((e) => e === v.event);
      if (!event) throw new ApiError(422, `event must be an event type such as timer.completed, got "${v.event}"`);
      const { result } = await sendEndpointExample(svc, deps.scheduler.sender, account(c), c.req.param("id"), event);
      if (!result.ok) throw new ApiError(422, fill(t(c).ep_example_failed, { event, error: result.error ?? "" }));
      return fill(t(c).ep_example_sent, { event, status: String(result.status) });
    }));
  dash.post("/webhooks/endpoints/:id/delete", (c) =>
    change(c, null, async () => {
      const e = await svc.get(account(c), c.req.param("id"));
      await svc.delete(account(c), e.id);
      return t(c).ep_deleted.replace("{url}", e.url);
    }));
}
