/** The page a browser gets for an address nothing answers (the API keeps its JSON error). */
import { SiteHeader } from "../../components/SiteHeader.tsx";
import { type Lang, texts } from "../../lib/i18n.ts";
import { renderPage } from "../../lib/islands.tsx";

export function missingPage(lang: Lang, signedIn = false): string {
  const t = texts(lang);
  return renderPage(
    <>
      <SiteHeader lang={lang} signedIn={signedIn} />
      <main class="missing">
        <h1>{t.page_not_found_title}</h1>
        <p>{t.page_not_found_body}</p>
        <p>
          <a class="button" href="/">{t.home}</a>
        </p>
      </main>
    </>,
    { lang, title: `${t.page_not_found_title} · Timer Service`, css: ["site.css"], bodyClass: "site" },
  );
}
