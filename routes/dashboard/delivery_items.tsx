/**
 * A list of webhook deliveries as the timer page and the account's delivery log show them: each
 * with its state, destination, payload, and per attempt the status, duration and the receiver's
 * answer (headers and the first 2 KB of the body). The answer is a stranger's text: it is only
 * ever rendered as escaped text inside <pre>, never as markup.
 */
import type { Delivery } from "../../lib/kv/store.ts";
import type { Attempt } from "../../lib/webhooks/delivery_model.ts";
import { CellLabel, Filled, type Frame, PostForm, When } from "./layout.tsx";

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
              <When ms={a.at} f={f} />
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

/** One attempt's answer: its headers and body as text. */
function Answer({ f, a }: { f: Frame; a: Attempt }) {
  const { t } = f;
  const r = a.response!;
  const headers = Object.entries(r.headers).map(([k, v]) => `${k}: ${v}`).join("\n");
  return (
    <details class="answer" data-answer={a.n}>
      <summary>
        <Filled text={t.dl_answer} parts={{ n: String(a.n), status: String(a.status ?? "—") }} />
      </summary>
      <h4>{t.dl_headers}</h4>
      <pre class="wire" data-headers={a.n}>{headers || "—"}{r.headers_truncated ? `\n${t.dl_cut}` : ""}</pre>
      <h4>{t.dl_body}</h4>
      {r.body === ""
        ? <p class="muted">{t.dl_empty}</p>
        : <pre class="wire" data-body={a.n}>{r.body}{r.truncated ? `\n${t.dl_cut_body}` : ""}</pre>}
    </details>
  );
}

export function DeliveryList({ f, deliveries, action, timerLink }: {
  f: Frame;
  deliveries: Delivery[];
  /** Where a delivery's Redeliver form posts. */
  action: (d: Delivery) => string;
  /** Show which timer each delivery is of (the account-wide log). */
  timerLink?: boolean;
}) {
  const { t } = f;
  const states = { pending: t.ds_pending, succeeded: t.ds_succeeded, failed: t.ds_failed };
  return (
    <ol class="deliveries">
      {deliveries.map((d) => (
        <li key={d.id} class="delivery" data-delivery={d.id} data-state={d.state}>
          <div class="delivery-head">
            <strong>{d.payload.event}</strong> <span class={`state state--${d.state}`}>{states[d.state]}</span>{" "}
            <span class="muted">
              <When ms={d.created_at} f={f} />
            </span>{" "}
            <code class="muted small">{d.id}</code>
            {!d.claimed && (
              <PostForm f={f} action={action(d)} class="inline">
                <button type="submit" class="button button--small" aria-label={`${t.dt_redeliver} ${d.id}`}>
                  {t.dt_redeliver}
                </button>
              </PostForm>
            )}
          </div>
          <p class="delivery-to small">
            {timerLink && (
              <>
                {t.dl_timer} {d.timer_id.startsWith("tmr_")
                  ? <a href={`/dashboard/timers/${encodeURIComponent(d.timer_id)}`}>{d.timer_id}</a>
                  : <code>{d.timer_id}</code>}
                {" · "}
              </>
            )}
            {d.endpoint_id ? t.dl_to_endpoint : t.dl_to_timer} <code>{d.url}</code>
          </p>
          {d.state === "pending" && d.next_attempt_at !== null && (
            <p class="muted">
              <Filled text={t.dt_next} parts={{ date: <When ms={d.next_attempt_at} f={f} /> }} />
            </p>
          )}
          {d.attempts.length === 0 ? <Attempts f={f} d={d} /> : (
            // Collapsed on a long page (a failed one open: that is the one to read).
            <details class="attempts-box" open={d.state === "failed"}>
              <summary>{t.dt_attempts} ({d.attempts.length})</summary>
              <Attempts f={f} d={d} />
              {d.attempts.filter((a) => a.response).reverse().map((a) => <Answer key={a.n} f={f} a={a} />)}
            </details>
          )}
          <details class="payload-box">
            <summary>{t.dl_payload}</summary>
            <pre class="wire" data-payload={d.id}>{JSON.stringify(d.payload, null, 2)}</pre>
          </details>
        </li>
      ))}
    </ol>
  );
}
