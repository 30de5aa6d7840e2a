/** The dashboard's frame: header, section navigation, flash message and the page's main content. */
import type { ComponentChildren } from "preact";
import { BrandMark } from "../../components/BrandMark.tsx";
import { fill } from "../../lib/display.ts";
import { type Lang, LANG_NAMES, LANGS } from "../../lib/i18n.ts";
import { island, renderPage } from "../../lib/islands.tsx";
import LocalTimesIsland from "../../islands/LocalTimes.tsx";
import type { DashTexts } from "./texts.ts";
import { Reauth } from "../auth/pages.tsx";
import { authTexts } from "../auth/texts.ts";

const LocalTimes = island("LocalTimes", LocalTimesIsland);

export type Section = "overview" | "keys" | "webhooks" | "timers" | "deliveries" | "requests" | "account";

/** A one-time message after a form was sent. */
export interface Flash {
  kind: "ok" | "error";
  text: string;
}

/** What every page of the dashboard knows. */
export interface Frame {
  lang: Lang;
  t: DashTexts;
  /** The signed-in person, as shown in the header. */
  who: string;
  csrf: string;
  csrfField: string;
  /** The request's path and query, to come back to after changing the language. */
  here: string;
}

const SECTIONS: { id: Section; href: string; key: keyof DashTexts }[] = [
  { id: "overview", href: "/dashboard", key: "nav_overview" },
  { id: "keys", href: "/dashboard/keys", key: "nav_keys" },
  { id: "webhooks", href: "/dashboard/webhooks", key: "nav_webhooks" },
  { id: "timers", href: "/dashboard/timers", key: "nav_timers" },
  { id: "deliveries", href: "/dashboard/deliveries", key: "nav_deliveries" },
  { id: "requests", href: "/dashboard/requests", key: "nav_requests" },
  { id: "account", href: "/dashboard/account", key: "nav_account" },
];

/** The hidden CSRF field every state-changing form carries. */
export function Csrf({ f }: { f: Frame }) {
  return <input type="hidden" name={f.csrfField} value={f.csrf} />;
}

/** A form that POSTs to `action` with the CSRF token. */
export function PostForm(
  { f, action, class: cls, children }: { f: Frame; action: string; class?: string; children: ComponentChildren },
) {
  return (
    <form method="post" action={action} class={cls}>
      <Csrf f={f} />
      {children}
    </form>
  );
}

/**
 * A cell's column name, shown only where a `.cards` table becomes one card per row (a phone):
 * there the header row is out of sight. Hidden from assistive technology, which has the header.
 */
export function CellLabel({ children, inline }: { children: ComponentChildren; inline?: boolean }) {
  return <span class={inline ? "cell-label cell-label--inline" : "cell-label"} aria-hidden="true">{children}</span>;
}

export function FlashBox({ flash }: { flash: Flash | null }) {
  if (!flash) return null;
  return (
    <p class={`flash flash--${flash.kind}`} role={flash.kind === "error" ? "alert" : "status"}>
      {flash.text}
    </p>
  );
}

/** Renders a whole dashboard page. */
export function dashPage(
  f: Frame,
  o: { section: Section; title: string; flash?: Flash | null; css?: string[]; children: ComponentChildren },
): string {
  const { t } = f;
  return renderPage(
    <>
      <a class="skip" href="#main">{t.skip}</a>
      <header class="dash-header">
        <a class="dash-brand" href="/">
          <BrandMark /> Timer Service
        </a>
        <a class="dash-docs" href="/docs">{t.docs}</a>
        <div class="dash-who">
          <span class="dash-user">{fill(t.signed_in_as, { who: f.who })}</span>
          <details class="dash-lang">
            <summary class="button button--small button--quiet">
              <span class="sr-only">{t.language}:</span> {LANG_NAMES[f.lang]}
            </summary>
            <ul>
              {LANGS.map((l) => (
                <li key={l}>
                  <a
                    href={`/dashboard/lang?lang=${l}&back=${encodeURIComponent(f.here)}`}
                    lang={l}
                    hreflang={l}
                    aria-current={l === f.lang ? "true" : undefined}
                  >
                    {LANG_NAMES[l]}
                  </a>
                </li>
              ))}
            </ul>
          </details>
          <form method="post" action="/logout" class="dash-out">
            <Csrf f={f} />
            <button type="submit" class="button button--small button--quiet">{t.sign_out}</button>
          </form>
        </div>
      </header>
      <nav class="dash-nav" aria-label={t.nav_label}>
        <ul>
          {SECTIONS.map((s) => (
            <li key={s.id}>
              <a href={s.href} aria-current={s.id === o.section ? "page" : undefined}>{t[s.key]}</a>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" class="dash-main" tabIndex={-1}>
        <h1>{o.title}</h1>
        <FlashBox flash={o.flash ?? null} />
        {o.children}
        <LocalTimes lang={f.lang} />
      </main>
    </>,
    {
      lang: f.lang,
      title: `${o.title} · ${t.dashboard} · Timer Service`,
      css: ["site.css", ...(o.css ?? []), "dashboard.css"],
      bodyClass: "site dash",
    },
  );
}

/** A date and time in the reader's language (UTC, named, so it reads the same everywhere). */
export function when(ms: number | string | null, lang: Lang, t: DashTexts): string {
  if (ms === null) return t.never;
  return new Intl.DateTimeFormat(lang, {
    dateStyle: "medium",
    timeStyle: "long",
    timeZone: "UTC",
  }).format(typeof ms === "string" ? Date.parse(ms) : ms);
}

/**
 * A date and time as the reader sees it: UTC in the HTML (and on hover), the reader's own zone
 * once the page's LocalTimes island has run.
 */
export function When({ ms, f }: { ms: number | string | null; f: Frame }) {
  if (ms === null) return <>{f.t.never}</>;
  const at = typeof ms === "string" ? Date.parse(ms) : ms;
  const utc = when(at, f.lang, f.t);
  return <time dateTime={new Date(at).toISOString()} title={utc} data-local="">{utc}</time>;
}

/** A text with `{name}` places filled by pieces of markup (a <When> in a sentence). */
export function Filled({ text, parts }: { text: string; parts: Record<string, ComponentChildren> }) {
  return (
    <>
      {text.split(/\{(\w+)\}/).map((piece, i) => (i % 2 === 1 ? <span key={i}>{parts[piece]}</span> : piece))}
    </>
  );
}

/** A refused request as a page: what went wrong and the way back (`field` "_csrf": an out-of-date or foreign form). */
export function problemPage(f: Frame, status: number, message: string, field?: string): string {
  const title = status === 404 ? f.t.not_found : field === "_csrf" ? f.t.csrf_failed : `HTTP ${status}`;
  return dashPage(f, {
    section: "overview",
    title,
    flash: { kind: "error", text: message },
    children: (
      <p>
        <a href="/dashboard">{f.t.nav_overview}</a>
      </p>
    ),
  });
}

/** A form refused for an old sign-in (403): sign in again, then come back to `next` (a page of `section`). */
export function reauthPage(f: Frame, section: Section, next: string): string {
  const t = authTexts(f.lang);
  return dashPage(f, { section, title: t.reauth_title, children: <Reauth t={t} next={next} /> });
}
