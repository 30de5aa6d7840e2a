/** One timer: its live row and actions, links and embed code, every delivery and attempt, test sends. */
import type { TimerRow } from "../../islands/DashboardTimers.tsx";
import { EMBED, embedSnippet, fill } from "../../lib/display.ts";
import type { Delivery } from "../../lib/kv/store.ts";
import type { Timer } from "../../lib/timers/model.ts";
import { Copy } from "./keys.tsx";
import { CellLabel, dashPage, type Flash, type Frame, PostForm, when } from "./layout.tsx";
import { tableProps, TimersTable } from "./timers.tsx";

function Attempts({ f, d }: { f: Frame; d: Delivery }) {
  const { t } = f;
  if (d.attempts.length === 0) return <p class="muted">{t.dt_no_attempts}</p>;
  return (
    <table class="attempts cards">
      <caption class="sr-only">{t.dt_attempts}</caption>
      <thead>
        <tr>
          <th scope="col">#</th>
          <th scope="col">{t.dt_attempt_at}</th>
          <th scope="col">{t.dt_http}</th>
          <th scope="col" class="num">{t.dt_duration}</th>
          <th scope="col">{t.dt_error}</th>
        </tr>
      </thead>
      <tbody>
        {d.attempts.map((a) => (
          <tr key={a.n} data-attempt={a.n}>
            <td class="attempt-n">
              <CellLabel inline>#</CellLabel>
              {a.n}
            </td>
            <td>
              <CellLabel>{t.dt_attempt_at}</CellLabel>
              {when(a.at, f.lang, t)}
            </td>
            <td>
              <CellLabel>{t.dt_http}</CellLabel>
              {a.status ?? "—"}
            </td>
            <td class="num">
              <CellLabel>{t.dt_duration}</CellLabel>
              {new Intl.NumberFormat(f.lang).format(a.duration_ms)} ms
            </td>
            {a.error
              ? (
                <td>
                  <CellLabel>{t.dt_error}</CellLabel>
                  {a.error}
                </td>
              )
              : <td />}
          </tr>
        ))}
      </tbody>
    </table>
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
}) {
  const { t } = f;
  const { timer } = o;
  const id = encodeURIComponent(timer.id);
  const types = { countdown: t.type_countdown, event: t.type_event, interval: t.type_interval };
  const name = timer.title ?? fill(t.tm_untitled, { type: types[timer.type] });
  const embedUrl = `${o.siteUrl}/widget?id=${timer.id}`;
  const states = { pending: t.ds_pending, succeeded: t.ds_succeeded, failed: t.ds_failed };
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
            <dd>{when(timer.created_at, f.lang, t)}</dd>
            <dt>{t.dt_expires}</dt>
            <dd>{when(timer.expires_at, f.lang, t)}</dd>
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
            <ol class="deliveries">
              {o.deliveries.map((d) => (
                <li key={d.id} class="delivery" data-delivery={d.id} data-state={d.state}>
                  <div class="delivery-head">
                    <strong>{d.payload.event}</strong> <span class={`state state--${d.state}`}>{states[d.state]}</span>
                    {" "}
                    <span class="muted">{when(d.created_at, f.lang, t)}</span> <code class="muted small">{d.id}</code>
                    {d.state === "failed" && (
                      <PostForm
                        f={f}
                        action={`/dashboard/timers/${id}/deliveries/${encodeURIComponent(d.id)}/redeliver`}
                        class="inline"
                      >
                        <button type="submit" class="button button--small" aria-label={`${t.dt_redeliver} ${d.id}`}>
                          {t.dt_redeliver}
                        </button>
                      </PostForm>
                    )}
                  </div>
                  {d.state === "pending" && d.next_attempt_at !== null && (
                    <p class="muted">{fill(t.dt_next, { date: when(d.next_attempt_at, f.lang, t) })}</p>
                  )}
                  <Attempts f={f} d={d} />
                </li>
              ))}
            </ol>
          )}
          {o.next && (
            <p class="pager">
              <a href={`/dashboard/timers/${id}?cursor=${encodeURIComponent(o.next)}`}>{t.dt_older}</a>
            </p>
          )}
        </section>
        <section class="card card--danger" aria-labelledby="delete-heading">
          <h2 id="delete-heading">{t.tm_delete}</h2>
          <PostForm f={f} action={`/dashboard/timers/${id}/delete`}>
            <button type="submit" class="button button--danger">{t.tm_delete}</button>
          </PostForm>
        </section>
      </>
    ),
  });
}
