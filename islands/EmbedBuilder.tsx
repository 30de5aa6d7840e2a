/** The home page's embed builder: options in, a live preview and a copyable iframe snippet out. */
import { useComputed, useSignal, useSignalEffect } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import { clampEmbedSize, EMBED, embedSnippet, fill, type TimerType, widgetUrl } from "../lib/display.ts";
import type { BuilderTexts } from "../lib/i18n_home.ts";
import type { ScreenTexts } from "../lib/i18n_screens.ts";
import { BuilderView, useBuilderView } from "../components/BuilderView.tsx";

export interface EmbedBuilderProps {
  siteUrl: string;
  /** A default event target (wall time, `YYYY-MM-DDTHH:mm`). */
  defaultTarget: string;
  languages: { code: string; name: string }[];
  /** The page's language: the builder's texts and the widget's default language. */
  lang: string;
  t: BuilderTexts;
  /** Texts of the view options (mirror, transparent, delay, clock); absent: no such options. */
  st?: ScreenTexts;
}

export default function EmbedBuilder(p: EmbedBuilderProps) {
  const { t } = p;
  const type = useSignal<TimerType>("countdown");
  const title = useSignal(t.b_default_title);
  const hours = useSignal(0);
  const minutes = useSignal(5);
  const seconds = useSignal(0);
  const target = useSignal(p.defaultTarget);
  const timezone = useSignal("UTC");
  const work = useSignal(20);
  const rest = useSignal(10);
  const rounds = useSignal(8);
  const theme = useSignal("dark");
  const color = useSignal("#6c63ff");
  const lang = useSignal(p.lang);
  const showTitle = useSignal(true);
  const showDate = useSignal(true);
  const alarm = useSignal(true);
  const showBrand = useSignal(true);
  const id = useSignal("");
  const width = useSignal<number | string>(EMBED.w);
  const height = useSignal<number | string>(EMBED.h);
  const copied = useSignal("");
  const zones = useSignal<string[]>([]);
  const snippetRef = useRef<HTMLTextAreaElement>(null);
  const previewRef = useRef<HTMLDivElement>(null);
  /** The width the preview box has room for (null until measured). */
  const room = useSignal<number | null>(null);
  const view = useBuilderView();

  useEffect(() => {
    timezone.value = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
    try {
      zones.value = (Intl as unknown as { supportedValuesOf(k: string): string[] }).supportedValuesOf("timeZone");
    } catch { /* older browsers: free text */ }
  }, []);

  // A phone is narrower than many widget sizes: the preview then shows the widget as laid out at the
  // chosen size, scaled down to the room there is (the page never scrolls sideways).
  useEffect(() => {
    const box = previewRef.current;
    if (!box || typeof ResizeObserver !== "function") return;
    const observer = new ResizeObserver(([entry]) => room.value = entry.contentRect.width);
    observer.observe(box);
    return () => observer.disconnect();
  }, []);

  const url = useComputed(() =>
    view.apply(widgetUrl(p.siteUrl, {
      id: id.value.trim() || null,
      type: type.value,
      title: title.value,
      duration: hours.value * 3600 + minutes.value * 60 + seconds.value,
      target_date: target.value,
      timezone: timezone.value,
      work: work.value,
      rest: rest.value,
      rounds: rounds.value,
      theme: theme.value,
      primary_color: color.value.replace("#", ""),
      lang: lang.value,
      show_title: showTitle.value,
      show_date: showDate.value,
      alarm: alarm.value,
      show_brand: showBrand.value,
    }))
  );
  const size = useComputed(() => clampEmbedSize(width.value, height.value));
  const scale = useComputed(() => {
    const fit = room.value === null ? 1 : room.value / size.value.width;
    return fit < 1 ? Math.max(0.1, fit) : 1;
  });
  const snippet = useComputed(() => view.snippet(embedSnippet(url.value, size.value, title.value.trim() || t.b_timer)));
  // The preview reloads a moment after typing stops, not on every key.
  const preview = useSignal(url.peek());
  useSignalEffect(() => {
    const next = url.value;
    const h = setTimeout(() => preview.value = next, 350);
    return () => clearTimeout(h);
  });

  const num = (s: { value: number }) => (e: Event) => {
    const v = (e.currentTarget as HTMLInputElement).valueAsNumber;
    s.value = Number.isFinite(v) ? v : 0;
  };
  const text = (s: { value: string }) => (e: Event) => s.value = (e.currentTarget as HTMLInputElement).value;
  const check = (s: { value: boolean }) => (e: Event) => s.value = (e.currentTarget as HTMLInputElement).checked;

  async function copy() {
    try {
      await navigator.clipboard.writeText(snippet.value);
      copied.value = t.b_copied;
    } catch {
      snippetRef.current?.select();
      copied.value = document.execCommand?.("copy") ? t.b_copied : t.b_copy_failed;
    }
  }

  const live = id.value.trim() !== "";
  return (
    <div class="builder">
      <form class="builder-form" onSubmit={(e) => e.preventDefault()}>
        <fieldset>
          <legend>{t.b_timer}</legend>
          <label>
            {t.b_live_id} <small>{t.b_optional}</small>
            <input name="id" value={id} onInput={text(id)} placeholder="tmr_…" autocomplete="off" />
          </label>
          {!live && (
            <label>
              {t.b_type}
              <select name="type" value={type} onChange={(e) => type.value = e.currentTarget.value as TimerType}>
                <option value="countdown">{t.b_countdown}</option>
                <option value="event">{t.b_event}</option>
                <option value="interval">{t.b_interval}</option>
              </select>
            </label>
          )}
          <label>
            {t.b_title}
            <input name="title" value={title} maxLength={100} onInput={text(title)} />
          </label>
          {!live && type.value === "countdown" && (
            <div class="builder-row">
              <label>
                {t.b_hours} <input name="hours" type="number" min={0} max={8760} value={hours} onInput={num(hours)} />
              </label>
              <label>
                {t.b_minutes}{" "}
                <input name="minutes" type="number" min={0} max={59} value={minutes} onInput={num(minutes)} />
              </label>
              <label>
                {t.b_seconds}{" "}
                <input name="seconds" type="number" min={0} max={59} value={seconds} onInput={num(seconds)} />
              </label>
            </div>
          )}
          {!live && type.value === "event" && (
            <div class="builder-row">
              <label>
                {t.b_date}
                <input name="target_date" type="datetime-local" value={target} onInput={text(target)} />
              </label>
              <label>
                {t.b_zone}
                <input name="timezone" list="builder-zones" value={timezone} onInput={text(timezone)} />
                <datalist id="builder-zones">{zones.value.map((z) => <option key={z} value={z} />)}</datalist>
              </label>
            </div>
          )}
          {!live && type.value === "interval" && (
            <div class="builder-row">
              <label>
                {t.b_work} <input name="work" type="number" min={1} max={86400} value={work} onInput={num(work)} />
              </label>
              <label>
                {t.b_rest} <input name="rest" type="number" min={0} max={86400} value={rest} onInput={num(rest)} />
              </label>
              <label>
                {t.b_rounds}{" "}
                <input name="rounds" type="number" min={1} max={10000} value={rounds} onInput={num(rounds)} />
              </label>
            </div>
          )}
        </fieldset>
        <fieldset>
          <legend>{t.b_look}</legend>
          <div class="builder-row">
            <label>
              {t.b_theme}
              <select name="theme" value={theme} onChange={(e) => theme.value = e.currentTarget.value}>
                <option value="dark">{t.b_dark}</option>
                <option value="light">{t.b_light}</option>
                <option value="auto">{t.b_auto}</option>
              </select>
            </label>
            <label>
              {t.b_colour} <input name="primary_color" type="color" value={color} onInput={text(color)} />
            </label>
            <label>
              {t.b_language}
              <select name="lang" value={lang} onChange={(e) => lang.value = e.currentTarget.value}>
                {p.languages.map((l) => <option key={l.code} value={l.code}>{l.name}</option>)}
              </select>
            </label>
          </div>
          <div class="builder-checks">
            <label>
              <input type="checkbox" name="show_title" checked={showTitle} onChange={check(showTitle)} />{" "}
              {t.b_show_title}
            </label>
            {(live || type.value === "event") && (
              <label>
                <input type="checkbox" name="show_date" checked={showDate} onChange={check(showDate)} /> {t.b_show_date}
              </label>
            )}
            <label>
              <input type="checkbox" name="alarm" checked={alarm} onChange={check(alarm)} /> {t.b_alarm}
            </label>
            <label>
              <input type="checkbox" name="show_brand" checked={showBrand} onChange={check(showBrand)} />{" "}
              {t.b_show_brand} <small>{t.b_brand_note}</small>
            </label>
          </div>
          <div class="builder-row">
            <label>
              {t.b_width}
              <input
                name="width"
                type="number"
                min={EMBED.minW}
                max={EMBED.maxW}
                value={width}
                onInput={text(width as { value: string })}
                onBlur={() => width.value = size.value.width}
              />
            </label>
            <label>
              {t.b_height}
              <input
                name="height"
                type="number"
                min={EMBED.minH}
                max={EMBED.maxH}
                value={height}
                onInput={text(height as { value: string })}
                onBlur={() => height.value = size.value.height}
              />
            </label>
          </div>
        </fieldset>
        {p.st && <BuilderView view={view} st={p.st} zones={zones.value} />}
      </form>
      <div class="builder-out">
        <h3 id="preview-heading">{t.b_preview}</h3>
        <div class="builder-preview" ref={previewRef}>
          <div
            class="builder-frame"
            data-scale={scale.value}
            style={{ width: `${size.value.width * scale.value}px`, height: `${size.value.height * scale.value}px` }}
          >
            <iframe
              src={preview}
              title={fill(t.b_preview_of, { title: title.value.trim() || t.b_timer })}
              style={{
                ...view.frameStyle(),
                width: `${size.value.width}px`,
                height: `${size.value.height}px`,
                border: 0,
                transform: scale.value < 1 ? `scale(${scale.value})` : undefined,
              }}
            />
          </div>
        </div>
        <label class="builder-snippet">
          {t.b_code}
          <textarea ref={snippetRef} name="snippet" readOnly rows={4} value={snippet} />
        </label>
        <p class="builder-copy">
          <button type="button" class="button" onClick={copy}>{t.b_copy}</button>{" "}
          <span role="status" aria-live="polite">{copied}</span>
        </p>
      </div>
    </div>
  );
}
