/** The dashboard's HTTP helpers: HTML responses, the page frame, one-time flash messages, safe returns. */
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { asLang, type Lang, negotiateLang } from "../../lib/i18n.ts";
import { privatePageHeaders } from "../../lib/csp.ts";
import { formFields } from "../../lib/http.ts";
import type { OnceResults } from "../../lib/accounts/once.ts";
import type { Flash, Frame } from "./layout.tsx";
import { CSRF_FIELD, type DashEnv } from "./session.ts";
import { dashTexts } from "./texts.ts";

export type Ctx = Context<DashEnv>;

/**
 * An HTML response of the dashboard: never cached (it may carry a secret shown once), never
 * framed. Built on the context, so cookies set meanwhile (a flash read once) go with it.
 */
export function html(c: Context, body: string, status = 200): Response {
  return c.html(
    body,
    status as ContentfulStatusCode,
    privatePageHeaders({ inlineStyles: true, referrer: "same-origin" }),
  );
}

/**
 * The dashboard's own cookies, `__Host-` where cookies are Secure (as the session's): a sibling
 * subdomain can then not set them, so no page of it shows a message (or a language) it did not write.
 */
const cookieName = (c: Ctx, name: string) => c.get("secureCookies") ? `__Host-${name}` : name;
// The whole site: sign-in's /account routes answer the dashboard's account forms in its frame and language.
const COOKIE_PATH = "/";

/** The reader's language: the one chosen in the dashboard, else the browser's. */
export function langOf(c: Ctx): Lang {
  return asLang(getCookie(c, cookieName(c, "dash_lang"))) ?? negotiateLang(c.req.header("accept-language"));
}

export function setLang(c: Ctx, lang: Lang) {
  // Over plain http the cookie had Path=/dashboard before: that one would shadow the new choice there.
  if (!c.get("secureCookies")) deleteCookie(c, "dash_lang", { path: "/dashboard" });
  setCookie(c, cookieName(c, "dash_lang"), lang, {
    path: COOKIE_PATH,
    sameSite: "Lax",
    maxAge: 365 * 86400,
    httpOnly: true,
    secure: c.get("secureCookies"),
  });
}

/** What every page knows about the request. */
export function frameOf(c: Ctx): Frame {
  const s = c.get("session");
  const lang = langOf(c);
  const url = new URL(c.req.url);
  return {
    lang,
    t: dashTexts(lang),
    who: s.user.email,
    csrf: s.csrf,
    csrfField: CSRF_FIELD,
    here: url.pathname + url.search,
  };
}

/** Remembers a message for the next page this browser shows (after the redirect). */
export function flash(c: Ctx, f: Flash) {
  setCookie(c, cookieName(c, "dash_flash"), encodeURIComponent(JSON.stringify(f)), {
    path: COOKIE_PATH,
    sameSite: "Lax",
    httpOnly: true,
    secure: c.get("secureCookies"),
    maxAge: 60,
  });
}

/** The message left by the previous request, read once. */
export function takeFlash(c: Ctx): Flash | null {
  const raw = getCookie(c, cookieName(c, "dash_flash"));
  if (!raw) return null;
  deleteCookie(c, cookieName(c, "dash_flash"), { path: COOKIE_PATH, secure: c.get("secureCookies") });
  try {
    const f = JSON.parse(decodeURIComponent(raw));
    return (f.kind === "ok" || f.kind === "error") && typeof f.text === "string"
      ? { kind: f.kind, text: f.text }
      : null;
  } catch {
    return null;
  }
}

/** A path inside the dashboard to return to; anything else (another site, `//host`) falls back. */
export function safeBack(raw: unknown, fallback: string): string {
  // Printable ASCII only: a control character (CR, LF) in a Location header is a server error.
  return typeof raw === "string" && /^\/dashboard(?:[/?#][\x21-\x7e]*)?$/.test(raw) && !raw.includes("\\")
    ? raw
    : fallback;
}

/** The form fields as strings (the body was parsed once by the CSRF guard; Hono caches it). */
export function formOf(c: Ctx): Promise<Record<string, string>> {
  return formFields(c);
}

/** The session cookie's token: one-time results are sealed with it (the server stores only its hash). */
export function sessionToken(c: Ctx): string {
  return getCookie(c, c.get("secureCookies") ? "__Host-session" : "session") ?? "";
}

/** Holds and takes the one-time results of this request's session (see lib/accounts/once.ts). */
export function onceOf(once: OnceResults) {
  return {
    hold: (c: Ctx, page: string, value: unknown) =>
      once.hold(c.get("session").record.hash, sessionToken(c), page, value),
    take: <T>(c: Ctx, page: string) => once.take<T>(c.get("session").record.hash, sessionToken(c), page),
  };
}

export type Once = ReturnType<typeof onceOf>;

/** 303 to `to`: after a form POST the browser GETs the page again. */
export function seeOther(c: Ctx, to: string): Response {
  return c.redirect(to, 303);
}
