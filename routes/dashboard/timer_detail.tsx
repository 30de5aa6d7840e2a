/** One timer: its live row and actions, links and embed code, every delivery and attempt, test sends. */
import type { TimerRow } from "../../islands/DashboardTimers.tsx";
import { EMBED, embedSnippet, fill } from "../../lib/display.ts";
import type { Delivery } from "../../lib/kv/store.ts";
import { THEMES, type Timer } from "../../lib/timers/model.ts";
import { Copy } from "./keys.tsx";
import { dashPage, type Flash, type Frame, PostForm, When } from "./layout.tsx";
import { DeliveryList } from "./delivery_items.tsx";
import { type CreateForm, tableProps, TimersTable } from "./timers.tsx";
import { ShowSection } from "./timer_show.tsx";

/** The fields the edit form changes, as PATCH /api/v1/timers/:id names them. */
export const EDIT_FIELDS = ["title", "theme", "color", "webhook_url"] as const;

/** The edit form's values as they stand on the timer. */
export function editValues(timer: Timer): Record<string, string> {
  return { title: timer.title ?? "", theme: timer.theme, color: timer.color, webhook_url: timer.webhook_url ?? "" };
}

/**
 * Title, theme, colour and webhook URL, posted to /edit (TimerService.update, as PATCH). A refused
 * value comes back typed as it was, its field marked, its message below it and the cursor in it.
 */
function EditTimerForm({ f, id, form }: { f: Frame; id: string; form: CreateForm }) {
  const { t } = f;
  const v = form.values;
  const err = form.error;
  const bad = (name: string) => err?.field === name;
  const onNoField = err && !(EDIT_FIELDS as readonly string[]).includes(err.field ?? "");
  const described = (name: string, hint?: string) =>
    [hint, bad(name) ? `edit-${name}-error` : undefined].filter(Boolean).join(" ") || undefined;
  const marks = (name: string, hint?: string) => ({
    id: `edit-${name}`,
    name,
    "aria-invalid": bad(name) ? "true" as const : undefined,
    "aria-describedby": described(name, hint),
    autofocus: bad(name) || undefined,
  });
  const Err = ({ name }: { name: string }) =>
    bad(name) ? <p id={`edit-${name}-error`} class="field-error" role="alert">{err!.message}</p> : null;
  const themes = { light: t.theme_light, dark: t.theme_dark, auto: t.theme_auto };
  return (
    <section id="edit" class="card" aria-labelledby="edit-heading">
      <h2 id="edit-heading">{t.ed_title}</h2>
      {onNoField && <p class="flash flash--error" role="alert">{err.message}</p>}
      <PostForm f={f} action={`/dashboard/timers/${id}/edit`} class="edit-timer">
        <div class="grid">
          <div class="field">
            <label for="edit-title">{t.tm_title_field}</label>
            <input {...marks("title", "edit-title-hint")} type="text" value={v.title ?? ""} maxLength={100} />
            <p id="edit-title-hint" class="field-hint">{t.ed_title_hint}</p>
            <Err name="title" />
          </div>
          <div class="field">
            <label for="edit-theme">{t.tm_theme}</label>
            <select {...marks("theme")}>
              {THEMES.map((th) => <option key={th} value={th} selected={v.theme === th}>{themes[th]}</option>)}
            </select>
            <Err name="theme" />
          </div>
          <div class="field">
            <label for="edit-color">{t.tm_color}</label>
            <input {...marks("color")} type="text" value={v.color ?? ""} maxLength={7} placeholder="6C63FF" />
            <Err name="color" />
          </div>
          <div class="field">
            <label for="edit-webhook_url">{t.dt_webhook}</label>
            <input
              {...marks("webhook_url", "edit-webhook_url-hint")}
              type="url"
              value={v.webhook_url ?? ""}
              placeholder="https://example.com/hook"
            />
            <p id="edit-webhook_url-hint" class="field-hint">{t.ed_webhook_hint}</p>
            <Err name="webhook_url" />
          </div>
        </div>
        <button type="submit" class="button">{t.ed_save}</button>
      </PostForm>
    </section>
  );
}

export function timerDetailPage(f: Frame, o: {
  timer: Timer;
  row: TimerRow;
  at: number;
  siteUrl: string;
  deliveries: Delivery[];
  next: string | null;
  flash: Flash | null;
  /** Right after creation or replacement: the control URL, shown this once. */
  controlUrl?: string;
  /** The edit form as typed when it was refused; else the timer's values. */
  edit?: CreateForm;
  /** The delete form was sent without its confirmation. */
  deleteError?: string;
}) {
  const { t } = f;
  const { timer } = o;
  const id = encodeURIComponent(timer.id);
  const types = { countdown: t.type_countdown, event: t.type_event, interval: t.type_interval };
  const name = timer.title ?? fill(t.tm_untitled, { type: types[timer.type] });
  const embedUrl = `${o.siteUrl}/widget?id=${timer.id}`;
  return dashPage(f, {
    section: "timers",
    title: name,
    flash: o.flash,
    children: (
      <>
        <p>
          <a href="/dashboard/timers">← {t.dt_back}</a>
        </p>
        {o.controlUrl && (
          // The field's label says it all (a heading repeated the same sentence above it).
          <section class="card card--secret" aria-label={t.tm_control_once}>
            <Copy
              id="control-url"
              label={t.tm_control_once}
              value={o.controlUrl}
              copy={t.copy}
              copied={t.copied}
              failed={t.copy_failed}
            />
            <p>
              <a href={o.controlUrl}>{o.controlUrl.replace(/#.*/, "#…")}</a>
            </p>
          </section>
        )}
        <TimersTable
          {...tableProps(f, {
            rows: [o.row],
            at: o.at,
            live: `/dashboard/live?id=${id}`,
            back: `/dashboard/timers/${id}`,
            links: false,
          })}
        />
        <section class="card" aria-labelledby="facts-heading">
          <h2 id="facts-heading">{t.dt_facts}</h2>
          <dl class="facts">
            <dt>{t.dt_id}</dt>
            <dd>
              <code>{timer.id}</code>
            </dd>
            <dt>{t.dt_created}</dt>
            <dd>
              <When ms={timer.created_at} f={f} />
            </dd>
            <dt>{t.dt_expires}</dt>
            <dd>
              <When ms={timer.expires_at} f={f} />
            </dd>
            <dt>{t.dt_webhook}</dt>
            <dd>{timer.webhook_url ? <code>{timer.webhook_url}</code> : fill(t.dt_no_webhook, { id: timer.id })}</dd>
          </dl>
          <p>
            <a class="button button--quiet" href={`${o.siteUrl}/v/${timer.id}`}>{t.tm_viewer}</a>{" "}
            <a class="button button--quiet" href={embedUrl}>Widget</a>
          </p>
          <Copy
            id="embed-code"
            label={t.tm_embed}
            value={embedSnippet(embedUrl, { width: EMBED.w, height: EMBED.h }, name)}
            multiline
            copy={t.copy}
            copied={t.copied}
            failed={t.copy_failed}
          />
        </section>
        <ShowSection f={f} timer={timer} at={o.at} />
        <EditTimerForm f={f} id={id} form={o.edit ?? { values: editValues(timer) }} />
        <section class="card" aria-labelledby="control-link-heading">
          <h2 id="control-link-heading">{t.dt_control}</h2>
          <p class="muted">{t.dt_control_lede}</p>
          <PostForm f={f} action={`/dashboard/timers/${id}/control`}>
            <button type="submit" class="button">{t.dt_control_new}</button>
          </PostForm>
        </section>
        <section class="card" aria-labelledby="deliveries-heading">
          <h2 id="deliveries-heading">{t.dt_deliveries}</h2>
          <p class="muted">{t.dt_deliveries_lede}</p>
          {timer.webhook_url && (
            <PostForm f={f} action={`/dashboard/timers/${id}/test`} class="form-inline">
              <button type="submit" class="button">{t.dt_test}</button>
              <span class="muted">{t.dt_test_note}</span>
            </PostForm>
          )}
          {o.deliveries.length === 0 ? <p>{t.dt_none}</p> : (
            <DeliveryList
              f={f}
              deliveries={o.deliveries}
              action={(d) => `/dashboard/timers/${id}/deliveries/${encodeURIComponent(d.id)}/redeliver`}
            />
          )}
          {o.next && (
            <p class="pager">
              <a href={`/dashboard/timers/${id}?cursor=${encodeURIComponent(o.next)}`}>{t.dt_older}</a>
            </p>
          )}
        </section>
        <section class="card card--danger" aria-labelledby="delete-heading">
          <h2 id="delete-heading">{t.tm_delete}</h2>
          {/* A required box (as the account's deletion requires its email typed): no one-click loss, no script needed. */}
          <PostForm f={f} action={`/dashboard/timers/${id}/delete`}>
            <div class="confirm">
              <label class="check">
                <input
                  id="delete-confirm"
                  type="checkbox"
                  name="confirm"
                  value="yes"
                  required
                  aria-invalid={o.deleteError ? "true" : undefined}
                  aria-describedby={o.deleteError ? "delete-confirm-error" : undefined}
                  autofocus={o.deleteError ? true : undefined}
                />
                <span>{t.dt_delete_confirm}</span>
              </label>
              {o.deleteError && <p id="delete-confirm-error" class="field-error" role="alert">{o.deleteError}</p>}
            </div>
            <button type="submit" class="button button--danger">{t.tm_delete}</button>
          </PostForm>
        </section>
      </>
    ),
  });
}
