/** The dashboard's overview: the plan, its limits and the usage against them now. */
import type { PlanLimits } from "../../config.ts";
import { fill } from "../../lib/display.ts";
import { CellLabel, dashPage, type Flash, type Frame } from "./layout.tsx";

export interface Usage {
  minute: number;
  day: number;
  timers: number;
  /** Whether `timers` stopped counting at a cap (unlimited plans). */
  timersCapped: boolean;
}

function Meter({ f, label, used, limit, plus }: {
  f: Frame;
  label: string;
  used: number;
  limit: number | null;
  plus?: boolean;
}) {
  const nf = new Intl.NumberFormat(f.lang);
  const shown = `${nf.format(used)}${plus ? "+" : ""}`;
  const share = limit ? Math.min(1, used / limit) : 0;
  return (
    <tr>
      <th scope="row">{label}</th>
      <td class="num">
        <CellLabel>{f.t.ov_used}</CellLabel>
        {shown}
      </td>
      <td class="num">
        <CellLabel>{f.t.ov_limit}</CellLabel>
        {limit === null ? f.t.unlimited : nf.format(limit)}
      </td>
      <td class="meter-cell">
        {limit !== null && limit > 0 && (
          <meter min={0} max={limit} value={used} low={limit * 0.7} high={limit * 0.9} optimum={0} aria-label={label}>
            {fill(f.t.of, { used: shown, limit: nf.format(limit) })}
          </meter>
        )}
        {limit !== null && limit > 0 && <span class="sr-only">{Math.round(share * 100)}%</span>}
      </td>
    </tr>
  );
}

/** Who sets the plan, and whom to ask (OPERATOR_CONTACT) when the service names someone. */
export function PlanWho({ f, contact }: { f: Frame; contact: string | undefined }) {
  const link = !contact
    ? null
    : /^[^\s@]+@[^\s@]+$/.test(contact)
    ? <a href={`mailto:${contact}`}>{contact}</a>
    : /^https?:\/\//.test(contact)
    ? <a href={contact}>{contact}</a>
    : contact;
  const [before, after] = f.t.ov_contact.split("{contact}");
  return (
    <p class="muted">
      {f.t.ov_plan_note}
      {link && (
        <>
          {" "}
          {before}
          {link}
          {after}
        </>
      )}
    </p>
  );
}

/** In place of the timer form, for a plan without timers: what it includes, and who changes it. */
export function noTimersNote(f: Frame, plan: string, contact: string | undefined) {
  return (
    <>
      <p>
        {fill(f.t.pl_allows, { plan })} {f.t.pl_timers_no}
      </p>
      <PlanWho f={f} contact={contact} />
    </>
  );
}

/** The page of an action the account's plan does not include: what the plan has, and who changes it. */
export function planRefusalPage(
  f: Frame,
  o: { plan: string; limits: PlanLimits; message: string; contact: string | undefined },
) {
  const { t } = f;
  const nf = new Intl.NumberFormat(f.lang);
  const n = (x: number | null) => (x === null ? t.unlimited : nf.format(x));
  const timers = !o.limits.api
    ? t.pl_timers_no
    : o.limits.timers === null
    ? t.pl_timers_any
    : fill(t.pl_timers_yes, { n: nf.format(o.limits.timers) });
  return dashPage(f, {
    section: "overview",
    title: t.pl_title,
    flash: { kind: "error", text: o.message },
    children: (
      <section class="card" aria-labelledby="plan-heading">
        <h2 id="plan-heading">{fill(t.pl_allows, { plan: o.plan })}</h2>
        <ul>
          <li>{timers}</li>
          <li>{fill(t.pl_rate, { minute: n(o.limits.per_minute), day: n(o.limits.per_day) })}</li>
        </ul>
        <PlanWho f={f} contact={o.contact} />
        <p>
          <a href="/dashboard">{t.nav_overview}</a>
        </p>
      </section>
    ),
  });
}

/** The commands a customer can paste: this site's address, and their newest key's start to complete. */
export function curlExamples(siteUrl: string, keyPrefix: string | null): string[] {
  const key = keyPrefix ? `${keyPrefix}…` : "YOUR_API_KEY";
  const auth = `-H "Authorization: Bearer ${key}"`;
  const json = `-H "Content-Type: application/json"`;
  return [
    `curl -s -X POST ${siteUrl}/api/v1/timers \\\n  ${auth} \\\n  ${json} \\\n  -d '{"type":"countdown","duration":300,"title":"Tea"}'`,
    `curl -s -X PATCH ${siteUrl}/api/v1/timers/TIMER_ID/state \\\n  ${auth} \\\n  ${json} \\\n  -d '{"action":"start"}'`,
    `curl -s "${siteUrl}/api/v1/events?region=US"`,
  ];
}

export function overviewPage(
  f: Frame,
  o: {
    plan: string;
    limits: PlanLimits;
    usage: Usage;
    flash: Flash | null;
    siteUrl: string;
    keyPrefix: string | null;
    /** This account is the administrator's (the instance's first sign-up). */
    administrator: boolean;
    contact: string | undefined;
  },
) {
  const { t } = f;
  const { limits, usage } = o;
  return dashPage(f, {
    section: "overview",
    title: t.ov_title,
    flash: o.flash,
    children: (
      <>
        <section class="card" aria-labelledby="plan-heading">
          <h2 id="plan-heading">{t.ov_plan}</h2>
          <p class="plan-line">
            {fill(t.ov_plan_line, { plan: o.plan })} <span class="badge">{o.plan}</span>
          </p>
          <p>
            {t.ov_api}: <strong>{limits.api ? t.ov_api_yes : t.ov_api_no}</strong>
          </p>
          <div class="table-wrap">
            <table class="usage cards">
              <thead>
                <tr>
                  <th scope="col">{t.ov_plan}</th>
                  <th scope="col" class="num">{t.ov_used}</th>
                  <th scope="col" class="num">{t.ov_limit}</th>
                  <th scope="col">
                    <span class="sr-only">{t.ov_used} / {t.ov_limit}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                <Meter f={f} label={t.ov_req_minute} used={usage.minute} limit={limits.per_minute} />
                <Meter f={f} label={t.ov_req_day} used={usage.day} limit={limits.per_day} />
                <Meter
                  f={f}
                  label={t.ov_timers}
                  used={usage.timers}
                  limit={limits.timers}
                  plus={usage.timersCapped}
                />
              </tbody>
            </table>
          </div>
          {o.administrator && <p class="notice">{t.ov_admin}</p>}
          <PlanWho f={f} contact={o.contact} />
        </section>
        <section class="card" aria-labelledby="start-heading">
          <h2 id="start-heading">{t.ov_start}</h2>
          <ol>
            <li>
              <a href="/dashboard/keys">{t.ov_start_1}</a>
            </li>
            <li>
              <a href="/dashboard/timers#new">{t.ov_start_2}</a>
            </li>
            <li>
              <a href="/dashboard/webhooks">{t.ov_start_3}</a>
            </li>
          </ol>
          <h3>{t.ov_try}</h3>
          <p>{o.keyPrefix ? fill(t.ov_try_key, { key: `${o.keyPrefix}…` }) : t.ov_try_nokey}</p>
          {curlExamples(o.siteUrl, o.keyPrefix).map((cmd, i) => (
            <pre class="curl" tabIndex={0} key={i}><code>{cmd}</code></pre>
          ))}
          <p>
            <a href="/docs">{t.ov_docs}</a>
          </p>
        </section>
      </>
    ),
  });
}
