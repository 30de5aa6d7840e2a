/** The home page: what the service is, and the embed builder. */
import { BrandMark } from "../../components/BrandMark.tsx";
import EmbedBuilder from "../../islands/EmbedBuilder.tsx";
import { LANG_NAMES, LANGS } from "../../lib/i18n.ts";
import { island, renderPage } from "../../lib/islands.tsx";

const Builder = island("EmbedBuilder", EmbedBuilder);

const LANGUAGES = LANGS.map((code) => ({ code, name: LANG_NAMES[code] }));

/** Renders the home page; `now` picks a default event date (next New Year). */
export function homePage(siteUrl: string, now: number): string {
  const nextYear = new Date(now).getUTCFullYear() + 1;
  return renderPage(
    <>
      <header class="hero">
        <p class="hero-brand">
          <BrandMark /> Timer Service
        </p>
        <h1>Timers you can embed anywhere and control from any device.</h1>
        <p class="hero-lede">
          Countdowns, event countdowns and interval workouts, shown in a small widget that drops into any page with one
          {" "}
          <code>&lt;iframe&gt;</code>. Timers created through the API get a viewer page and a private control page, and
          every open screen follows a start, pause or reset within a second.
        </p>
        <p class="hero-links">
          <a class="button" href="#builder">Build a widget</a>{" "}
          <a class="button button--quiet" href="/events">Holiday countdowns</a>{" "}
          <a class="button button--quiet" href="/docs">
            API reference
          </a>
        </p>
      </header>
      <main>
        <section class="features" aria-label="What it does">
          <article>
            <h2>Three kinds of timer</h2>
            <p>
              <strong>Countdown</strong> for a fixed length, <strong>event</strong>{" "}
              to count to a date in its own time zone, and <strong>interval</strong> for work and rest rounds.
            </p>
          </article>
          <article>
            <h2>Always in step</h2>
            <p>
              Screens compute the time from the deadline and the server's clock, never by counting ticks, so two screens
              agree and a tab woken from the background is right at once.
            </p>
          </article>
          <article>
            <h2>Readable by everyone</h2>
            <p>
              Seven languages, light, dark or automatic themes, screen reader announcements at milestones, and no
              animation for people who ask for reduced motion.
            </p>
          </article>
        </section>
        <section id="builder" class="builder-section" aria-labelledby="builder-heading">
          <h2 id="builder-heading">Embed builder</h2>
          <p>
            Choose the options, watch the preview, then copy the code into your page. The widget needs no key; sizes
            from 100×200 to 600×600 pixels work.
          </p>
          <Builder siteUrl={siteUrl} defaultTarget={`${nextYear}-01-01T00:00`} languages={LANGUAGES} />
        </section>
        <section class="api-section" aria-labelledby="api-heading">
          <h2 id="api-heading">For developers</h2>
          <p>
            Create timers with <code>POST /api/v1/timers</code>{" "}
            and an API key (Pro and Enterprise plans). Each timer comes with a viewer URL (<code>/v/&lt;id&gt;</code>),
            an embed URL (<code>/widget?id=&lt;id&gt;</code>) and a control URL whose secret lives after the{" "}
            <code>#</code>. Webhooks tell your server when timers start, pause or complete. See the{" "}
            <a href="/docs">API reference</a>.
          </p>
        </section>
      </main>
      <footer class="site-footer">
        <p>
          Timer Service · <a href="/events">Holiday countdowns</a> · <a href="/docs">API reference</a>
        </p>
      </footer>
    </>,
    {
      lang: "en",
      title: "Timer Service — embeddable countdown, event and interval timers",
      description: "Hosted countdown, event and interval timers with an embeddable widget, live sync and an API.",
      css: ["site.css"],
      bodyClass: "site",
    },
  );
}
