/** The Timers page: the live table with filters, and the form that creates a timer. */
import DashboardTimers, { type DashboardTimersProps, type TimerRow } from "../../islands/DashboardTimers.tsx";
import type { ComponentChildren } from "preact";
import { fill, type LiveSnapshot, sourceFromSnapshot } from "../../lib/display.ts";
import { texts as siteTexts } from "../../lib/i18n.ts";
import { island } from "../../lib/islands.tsx";
import { DEFAULT_THEME, THEMES, type Timer, TIMER_TYPES } from "../../lib/timers/model.ts";
import { publicSnapshot } from "../live.ts";
import { dashPage, type Flash, type Frame, PostForm } from "./layout.tsx";
import { actionName, stateName } from "./texts.ts";

const Table = island("DashboardTimers", DashboardTimers);

export const STATES = ["idle", "running", "paused", "completed", "stopped"] as const;

/** A table row of a timer at `now`: what the island computes its clock from. */
export function timerRow(t: Timer, now: number, siteUrl: string): TimerRow {
  const snap = publicSnapshot(t, now, siteUrl);
  return {
    id: t.id,
    title: t.title,
    type: t.type,
    source: sourceFromSnapshot(snap as LiveSnapshot),
    viewer_url: `${siteUrl}/v/${t.id}`,
  };
}

/** The island's texts and settings. */
export function tableProps(
  f: Frame,
  o: { rows: TimerRow[]; at: number; live: string; back: string; links: boolean },
): DashboardTimersProps {
  const { t } = f;
  return {
    ...o,
    lang: f.lang,
    csrf: { field: f.csrfField, token: f.csrf },
    t: {
      name: t.tm_name,
      type: t.tm_type,
      state: t.tm_state,
      remaining: t.tm_remaining,
      actions: t.tm_actions,
      none: t.tm_none,
      viewer: t.tm_viewer,
      live_on: t.tm_live_on,
      live_off: t.tm_live_off,
      untitled: t.tm_untitled,
      unlimited: t.unlimited,
      phases: { work: siteTexts(f.lang).work, rest: siteTexts(f.lang).rest },
      types: { countdown: t.type_countdown, event: t.type_event, interval: t.type_interval },
      states: Object.fromEntries(STATES.map((s) => [s, stateName(f.lang, s)])),
      action_names: Object.fromEntries(
        ["start", "pause", "resume", "stop", "reset"].map((a) => [a, actionName(f.lang, a)]),
      ),
    },
  };
}

export { Table as TimersTable };

/** What the create form holds (strings as typed), and which field was refused. */
export interface CreateForm {
  values: Record<string, string>;
  error?: { message: string; field?: string };
}

function Field(
  { form, name, label, type = "text", ...rest }: {
    form: CreateForm;
    name: string;
    label: string;
    type?: string;
    [k: string]: unknown;
  },
) {
  const bad = form.error?.field === name;
  return (
    <label class="field">
      <span>{label}</span>
      <input
        name={name}
        type={type}
        value={form.values[name] ?? ""}
        aria-invalid={bad ? "true" : undefined}
        aria-describedby={bad ? "create-error" : undefined}
        autofocus={bad || undefined}
        {...rest}
      />
    </label>
  );
}

function CreateTimerForm({ f, form }: { f: Frame; form: CreateForm }) {
  const { t } = f;
  const v = form.values;
  const types = { countdown: t.type_countdown, event: t.type_event, interval: t.type_interval };
  const themes = { light: t.theme_light, dark: t.theme_dark, auto: t.theme_auto };
  return (
    <section id="new" class="card" aria-labelledby="new-heading">
      <h2 id="new-heading">{t.tm_new}</h2>
      {form.error && <p id="create-error" class="flash flash--error" role="alert">{form.error.message}</p>}
      <PostForm f={f} action="/dashboard/timers" class="new-timer">
        <div class="grid">
          <label class="field">
            <span>{t.tm_type}</span>
            <select
              name="type"
              aria-invalid={form.error?.field === "type" ? "true" : undefined}
              autofocus={form.error?.field === "type" || undefined}
            >
              {TIMER_TYPES.map((ty) => (
                <option key={ty} value={ty} selected={(v.type ?? "countdown") === ty}>{types[ty]}</option>
              ))}
            </select>
          </label>
          <Field form={form} name="title" label={t.tm_title_field} maxLength={100} />
        </div>
        <fieldset class="for-countdown">
          <legend>{fill(t.tm_for_type, { type: types.countdown })}</legend>
          <Field form={form} name="duration" label={t.tm_duration} inputMode="numeric" />
        </fieldset>
        <fieldset class="for-event">
          <legend>{fill(t.tm_for_type, { type: types.event })}</legend>
          <div class="grid">
            <Field form={form} name="target_date" label={t.tm_target} type="datetime-local" step={1} />
            <Field form={form} name="timezone" label={t.tm_zone} placeholder="UTC" />
          </div>
        </fieldset>
        <fieldset class="for-interval">
          <legend>{fill(t.tm_for_type, { type: types.interval })}</legend>
          <div class="grid grid--3">
            <Field form={form} name="work" label={t.tm_work} inputMode="numeric" />
            <Field form={form} name="rest" label={t.tm_rest} inputMode="numeric" />
            <Field form={form} name="rounds" label={t.tm_rounds} inputMode="numeric" />
          </div>
        </fieldset>
        <div class="grid grid--3">
          <label class="field">
            <span>{t.tm_theme}</span>
            <select name="theme">
              {THEMES.map((th) => (
                <option key={th} value={th} selected={(v.theme ?? DEFAULT_THEME) === th}>{themes[th]}</option>
              ))}
            </select>
          </label>
          <Field form={form} name="color" label={t.tm_color} placeholder="6C63FF" maxLength={7} />
          <Field
            form={form}
            name="webhook_url"
            label={t.tm_webhook}
            type="url"
            placeholder="https://example.com/hook"
          />
        </div>
        <button type="submit" class="button">{t.tm_create}</button>
      </PostForm>
    </section>
  );
}

export function timersPage(f: Frame, o: {
  rows: TimerRow[];
  at: number;
  filter: { type: string; state: string };
  cursor: string | null;
  next: string | null;
  flash: Flash | null;
  form: CreateForm;
  status?: number;
  /** A plan without the timers API: its note (what the plan includes, who changes it) replaces the form. */
  noTimers?: ComponentChildren;
}) {
  const { t } = f;
  const q = new URLSearchParams();
  if (o.filter.type) q.set("type", o.filter.type);
  if (o.filter.state) q.set("state", o.filter.state);
  const types = { countdown: t.type_countdown, event: t.type_event, interval: t.type_interval };
  const nextQ = new URLSearchParams(q);
  if (o.next) nextQ.set("cursor", o.next);
  const liveQ = new URLSearchParams(q);
  if (o.cursor) liveQ.set("cursor", o.cursor);
  return dashPage(f, {
    section: "timers",
    title: t.tm_title,
    flash: o.flash,
    children: (
      <>
        <p class="lede">{t.tm_lede}</p>
        <form method="get" action="/dashboard/timers" class="filters" aria-label={t.tm_filters}>
          <label class="field">
            <span>{t.tm_type}</span>
            <select name="type">
              <option value="">{t.tm_all}</option>
              {TIMER_TYPES.map((ty) => (
                <option key={ty} value={ty} selected={o.filter.type === ty}>{types[ty]}</option>
              ))}
            </select>
          </label>
          <label class="field">
            <span>{t.tm_state}</span>
            <select name="state">
              <option value="">{t.tm_all}</option>
              {STATES.map((s) => (
                <option key={s} value={s} selected={o.filter.state === s}>{stateName(f.lang, s)}</option>
              ))}
            </select>
          </label>
          <button type="submit" class="button button--quiet">{t.tm_apply}</button>
        </form>
        <Table
          {...tableProps(f, {
            rows: o.rows,
            at: o.at,
            live: `/dashboard/live?${liveQ}`,
            back: f.here,
            links: true,
          })}
        />
        <p class="pager">
          {o.cursor && <a href={`/dashboard/timers?${q}`}>{t.tm_newest}</a>}{" "}
          {o.next && <a href={`/dashboard/timers?${nextQ}`}>{t.tm_older}</a>}
        </p>
        {o.noTimers
          ? (
            <section id="new" class="card" aria-labelledby="new-heading">
              <h2 id="new-heading">{t.tm_new}</h2>
              {o.noTimers}
            </section>
          )
          : <CreateTimerForm f={f} form={o.form} />}
      </>
    ),
  });
}
