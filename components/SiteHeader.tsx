/**
 * The header of every public page (home, docs, holidays, the 404 page, sign-in pages): the product
 * name leading home, Docs, Holidays, and the way in — "Sign in" / "Sign up", or "Dashboard" for a
 * browser that holds a session cookie (not checked against the store: a stale one lands on sign-in).
 */
import { renderToString } from "preact-render-to-string";
import type { Lang } from "../lib/i18n.ts";
import { BrandMark } from "./BrandMark.tsx";

const NAV: Record<
  Lang,
  { nav: string; docs: string; holidays: string; sign_in: string; sign_up: string; dashboard: string }
> = {
  en: {
    nav: "Site",
    docs: "Docs",
    holidays: "Holidays",
    sign_in: "Sign in",
    sign_up: "Sign up",
    dashboard: "Dashboard",
  },
  zh: { nav: "网站", docs: "文档", holidays: "节假日", sign_in: "登录", sign_up: "注册", dashboard: "控制台" },
  ja: {
    nav: "サイト",
    docs: "ドキュメント",
    holidays: "祝日",
    sign_in: "ログイン",
    sign_up: "登録",
    dashboard: "ダッシュボード",
  },
  es: {
    nav: "Sitio",
    docs: "Documentación",
    holidays: "Festivos",
    sign_in: "Entrar",
    sign_up: "Registrarse",
    dashboard: "Panel",
  },
  fr: {
    nav: "Site",
    docs: "Documentation",
    holidays: "Jours fériés",
    sign_in: "Se connecter",
    sign_up: "S’inscrire",
    dashboard: "Tableau de bord",
  },
  de: {
    nav: "Website",
    docs: "Doku",
    holidays: "Feiertage",
    sign_in: "Anmelden",
    sign_up: "Registrieren",
    dashboard: "Dashboard",
  },
  ko: { nav: "사이트", docs: "문서", holidays: "공휴일", sign_in: "로그인", sign_up: "가입", dashboard: "대시보드" },
};

/** Names of the session cookie (Secure sites use the `__Host-` one). */
const SESSION_COOKIES = /(?:^|;\s*)(?:__Host-)?session=[^;]/;

/** Whether the request carries a session cookie (the header then offers the dashboard). */
export function holdsSession(cookieHeader: string | undefined): boolean {
  return SESSION_COOKIES.test(cookieHeader ?? "");
}

export type Place = "home" | "docs" | "holidays" | "sign-in" | "sign-up" | "";

export function SiteHeader(p: { lang?: Lang; signedIn: boolean; current?: Place }) {
  const t = NAV[p.lang ?? "en"];
  const here = (place: Place) => (p.current === place ? "page" : undefined);
  const q = p.lang && p.lang !== "en" ? `?lang=${p.lang}` : "";
  return (
    <header class="site-header">
      <a class="site-name" href={`/${q}`} aria-current={here("home")}>
        <BrandMark /> Timer Service
      </a>
      <nav aria-label={t.nav}>
        <ul>
          <li>
            <a href="/docs" aria-current={here("docs")}>{t.docs}</a>
          </li>
          <li>
            <a href={`/events${q}`} aria-current={here("holidays")}>{t.holidays}</a>
          </li>
          {p.signedIn
            ? (
              <li>
                <a class="site-cta" href="/dashboard">{t.dashboard}</a>
              </li>
            )
            : (
              <>
                <li>
                  <a href="/login" aria-current={here("sign-in")}>{t.sign_in}</a>
                </li>
                <li>
                  <a class="site-cta" href="/signup" aria-current={here("sign-up")}>{t.sign_up}</a>
                </li>
              </>
            )}
        </ul>
      </nav>
    </header>
  );
}

/** The header as HTML, for pages written as strings (/docs). */
export function siteHeaderHtml(signedIn: boolean, current: Place = ""): string {
  return renderToString(<SiteHeader signedIn={signedIn} current={current} />);
}

/** The header's rules, for pages without site.css (/docs). Uses site.css's names where it has them. */
export const SITE_HEADER_CSS =
  `.site-header{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;
gap:.5rem 1.5rem;max-width:1080px;margin:0 auto;padding:12px 20px}
.site-header .site-name{display:inline-flex;align-items:center;gap:.4rem;font-weight:700;font-size:18px;
text-decoration:none;color:inherit}
.site-header ul{display:flex;flex-wrap:wrap;align-items:center;gap:.25rem 1.1rem;list-style:none;margin:0;padding:0}
.site-header nav a{text-decoration:none;font-weight:600}
.site-header nav a[aria-current]{text-decoration:underline}
.site-header .site-cta{border:2px solid currentColor;border-radius:10px;padding:.3em .9em}`;
