/** The dashboard's show controls of one timer: its zone, overtime, added time and message; adjust and message forms. */
import type { Hono } from "hono";
import type { Principal } from "../../lib/accounts/auth.ts";
import { fill, spokenDuration } from "../../lib/display.ts";
import { ApiError } from "../../lib/errors.ts";
import { type ShowTexts, showTexts } from "../../lib/i18n_show.ts";
import type { Timer } from "../../lib/timers/model.ts";
import { showView } from "../../lib/timers/show.ts";
import { MessageBody } from "../api/v1/schemas.ts";
import { issuesToError } from "../../lib/timers/validation.ts";
import { type Ctx, flash, formOf, langOf, seeOther } from "./http.ts";
import { type Frame, PostForm } from "./layout.tsx";
import type { DashboardDeps } from "./mod.ts";
import type { DashEnv } from "./session.ts";

const ADJUSTS = [-60, -10, 10, 60];
const COLORS = ["white", "green", "yellow", "red"] as const;

const adjustLabel = (st: ShowTexts, n: number, lang: string) =>
  fill(n > 0 ? st.adjust_add : st.adjust_take, { time: spokenDuration(Math.abs(n), lang) });

/** The section of the timer's page. */
export function ShowSection({ f, timer, at }: { f: Frame; timer: Timer; at: number }) {
  const st = showTexts(f.lang);
  const v = showView(timer, at);
  const id = encodeURIComponent(timer.id);
  const zones = {
    normal: st.zone_normal,
    warning: st.zone_warning,
    danger: st.zone_danger,
    overtime: st.zone_overtime,
  };
  const canAdjust = timer.type !== "event" && (timer.state === "running" || timer.state === "paused");
  const m = v.message;
  return (
    <section id="show" class="card" aria-labelledby="show-heading">
      <h2 id="show-heading">{st.show_heading}</h2>
      <dl class="facts">
        <dt>{st.show_zone}</dt>
        <dd data-zone={v.zone}>{zones[v.zone]}</dd>
        <dt>{st.show_overtime}</dt>
        <dd>{v.overtime ? spokenDuration(v.overtime_seconds, f.lang) : st.show_none}</dd>
        <dt>{st.show_added}</dt>
        <dd data-added={v.added_seconds}>
          {v.added_seconds === 0
            ? st.show_none
            : `${v.added_seconds > 0 ? "+" : "−"}${spokenDuration(Math.abs(v.added_seconds), f.lang)}`}
        </dd>
        <dt>{st.show_message}</dt>
        <dd data-message>
          {m ? [m.text, m.blackout ? st.message_blackout : ""].filter(Boolean).join(" · ") : st.show_none}
        </dd>
      </dl>
      {canAdjust && (
        <PostForm f={f} action={`/dashboard/timers/${id}/adjust`} class="show-adjust">
          <p role="group" aria-label={st.adjust}>
            {ADJUSTS.map((n) => {
              const shown = `${n > 0 ? "+" : "−"}${Math.abs(n) >= 60 ? `${Math.abs(n) / 60}:00` : `0:${Math.abs(n)}`}`;
              return (
                <button
                  key={n}
                  type="submit"
                  class="button button--small"
                  name="seconds"
                  value={String(n)}
                  aria-label={`${shown} (${adjustLabel(st, n, f.lang)})`}
                >
                  {shown}
                </button>
              );
            })}
          </p>
        </PostForm>
      )}
      <PostForm f={f} action={`/dashboard/timers/${id}/message`} class="show-message">
        <div class="grid">
          <div class="field">
            <label for="show-text">{st.message_text}</label>
            <input id="show-text" name="text" type="text" maxLength={200} value={m?.text ?? ""} />
          </div>
          <div class="field">
            <label for="show-color">{st.message_color}</label>
            <select id="show-color" name="color">
              {COLORS.map((c) => <option key={c} value={c} selected={m?.color === c}>{st[`color_${c}`]}</option>)}
            </select>
          </div>
          <div class="field">
            <label for="show-flash">{st.message_flash}</label>
            <input id="show-flash" name="flash" type="number" min={0} max={10} value={String(m?.flash ?? 0)} />
          </div>
          <div class="field">
            <label>
              <input name="blackout" type="checkbox" value="1" checked={m?.blackout ?? false} /> {st.message_blackout}
            </label>
          </div>
        </div>
        <button type="submit" class="button" name="do" value="show">{st.message_send}</button>{" "}
        <button type="submit" class="button button--small" name="do" value="clear">{st.message_clear}</button>
      </PostForm>
    </section>
  );
}

/** The form posts: adjust and message, as the API's actions/adjust and PUT/DELETE message (Post/Redirect/Get). */
export function showRoutes(dash: Hono<DashEnv>, deps: DashboardDeps) {
  const svc = deps.timers;
  const principalOf = (c: Ctx): Principal => ({ kind: "account", account: c.get("session").account });
  const back = (id: string) => `/dashboard/timers/${encodeURIComponent(id)}#show`;

  /** Runs a form's change; a refusal the person can act on (409, 422) comes back as a message. */
  async function change(c: Ctx, id: string, run: (st: ShowTexts) => Promise<string>) {
    const st = showTexts(langOf(c));
    try {
      flash(c, { kind: "ok", text: await run(st) });
    } catch (e) {
      if (!(e instanceof ApiError) || e.status >= 500 || e.status === 404 || e.status === 403) throw e;
      flash(c, { kind: "error", text: e.message });
    }
    return seeOther(c, back(id));
  }

  dash.post("/timers/:id/adjust", async (c) => {
    const id = c.req.param("id");
    const form = await formOf(c);
    return await change(c, id, async (st) => {
      const seconds = /^-?\d{1,6}$/.test(form.seconds ?? "") ? Number(form.seconds) : NaN;
      await svc.act(principalOf(c), id, { action: "adjust", seconds });
      return fill(seconds > 0 ? st.adjust_add : st.adjust_take, { time: spokenDuration(Math.abs(seconds), langOf(c)) });
    });
  });

  dash.post("/timers/:id/message", async (c) => {
    const id = c.req.param("id");
    const form = await formOf(c);
    return await change(c, id, async (st) => {
      if (form.do === "clear") {
        await svc.setMessage(principalOf(c), id, null);
        return st.message_cleared;
      }
      const input = {
        ...(form.text?.trim() && { text: form.text.trim() }),
        color: form.color,
        flash: /^\d{1,2}$/.test(form.flash ?? "") ? Number(form.flash) : form.flash,
        blackout: form.blackout === "1",
      };
      const parsed = MessageBody.safeParse(input);
      if (!parsed.success) throw issuesToError(parsed.error.issues, input, 422);
      await svc.setMessage(principalOf(c), id, parsed.data);
      return st.message_sent;
    });
  });
}
