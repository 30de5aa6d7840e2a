/** The home page: what the service is, and the embed builder, in the visitor's language. */
import { type ComponentChildren, Fragment } from "preact";
import { SiteHeader } from "../../components/SiteHeader.tsx";
import EmbedBuilder from "../../islands/EmbedBuilder.tsx";
import { type Lang, LANG_NAMES, LANGS } from "../../lib/i18n.ts";
import { builderTexts, homeTexts } from "../../lib/i18n_home.ts";
import { screenTexts } from "../../lib/i18n_screens.ts";
import { island, renderPage } from "../../lib/islands.tsx";

const Builder = island("EmbedBuilder", EmbedBuilder);

const LANGUAGES = LANGS.map((code) => ({ code, name: LANG_NAMES[code] }));

/** A text with `{name}` places filled by pieces of markup. */
function Filled(p: { text: string; parts: Record<string, ComponentChildren> }) {
  return (
    <>
      {p.text.split(/\{(\w+)\}/).map((piece, i) =>
        i % 2 === 1 ? <Fragment key={i}>{p.parts[piece] ?? `{${piece}}`}</Fragment> : piece
      )}
    </>
  );
}

/** The language switch: a link per language, the current one marked. */
export function LangSwitch(p: { lang: Lang; label: string; href: (lang: Lang) => string }) {
  return (
    <nav class="lang-switch" aria-label={p.label}>
      <ul>
        {LANGUAGES.map((l) => (
          <li key={l.code}>
            <a
              href={p.href(l.code)}
              hreflang={l.code}
              lang={l.code}
              aria-current={l.code === p.lang ? "page" : undefined}
            >
              {l.name}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** Renders the home page; `now` picks a default event date (next New Year). */
export function homePage(siteUrl: string, now: number, lang: Lang = "en", signedIn = false): string {
  const nextYear = new Date(now).getUTCFullYear() + 1;
  const t = homeTexts(lang);
  const q = lang === "en" ? "" : `?lang=${lang}`;
  return renderPage(
    <>
      <SiteHeader lang={lang} signedIn={signedIn} current="home" />
      <header class="hero">
        <LangSwitch lang={lang} label={t.language} href={(l) => `/?lang=${l}`} />
        <h1>{t.headline}</h1>
        <p class="hero-lede">
          <Filled text={t.lede} parts={{ iframe: <code>&lt;iframe&gt;</code> }} />
        </p>
        <p class="hero-links">
          <a class="button" href="#builder">{t.build}</a>{" "}
          <a class="button button--quiet" href={`/events${q}`}>{t.events}</a>{" "}
          <a class="button button--quiet" href="/docs">{t.api}</a>
        </p>
      </header>
      <main>
        <section class="features" aria-label={t.features}>
          <article>
            <h2>{t.f1_title}</h2>
            <p>{t.f1}</p>
          </article>
          <article>
            <h2>{t.f2_title}</h2>
            <p>{t.f2}</p>
          </article>
          <article>
            <h2>{t.f3_title}</h2>
            <p>{t.f3}</p>
          </article>
        </section>
        <section id="builder" class="builder-section" aria-labelledby="builder-heading">
          <h2 id="builder-heading">{t.builder}</h2>
          <p>{t.builder_lede}</p>
          <Builder
            siteUrl={siteUrl}
            defaultTarget={`${nextYear}-01-01T00:00`}
            languages={LANGUAGES}
            lang={lang}
            t={builderTexts(lang)}
            st={screenTexts(lang)}
          />
        </section>
        <section class="api-section" aria-labelledby="api-heading">
          <h2 id="api-heading">{t.dev}</h2>
          <p>
            <Filled
              text={t.dev_text}
              parts={{
                post: <code>POST /api/v1/timers</code>,
                viewer: <code>/v/&lt;id&gt;</code>,
                embed: <code>/widget?id=&lt;id&gt;</code>,
                hash: <code>#</code>,
                docs: <a href="/docs">{t.api}</a>,
              }}
            />
          </p>
        </section>
      </main>
      <footer class="site-footer">
        <p>
          Timer Service · <a href={`/events${q}`}>{t.events}</a> · <a href="/docs">{t.api}</a>
        </p>
      </footer>
    </>,
    {
      lang,
      title: t.title,
      description: t.description,
      css: ["site.css"],
      bodyClass: "site",
    },
  );
}
