/** The home page's embed builder: options in, a live preview and a copyable iframe snippet out. */
import { useComputed, useSignal, useSignalEffect } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import { clampEmbedSize, EMBED, embedSnippet, type TimerType, widgetUrl } from "../lib/display.ts";

export interface EmbedBuilderProps {
  siteUrl: string;
  /** A default event target (wall time, `YYYY-MM-DDTHH:mm`). */
  defaultTarget: string;
  languages: { code: string; name: string }[];
}

export default function EmbedBuilder(p: EmbedBuilderProps) {
  const type = useSignal<TimerType>("countdown");
  const title = useSignal("Coffee break");
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
  const lang = useSignal("en");
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

  useEffect(() => {
    timezone.value = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
    try {
      zones.value = (Intl as unknown as { supportedValuesOf(k: string): string[] }).supportedValuesOf("timeZone");
    } catch { /* older browsers: free text */ }
  }, []);

  const url = useComputed(() =>
    widgetUrl(p.siteUrl, {
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
    })
  );
  const size = useComputed(() => clampEmbedSize(width.value, height.value));
  const snippet = useComputed(() => embedSnippet(url.value, size.value, title.value.trim() || "Timer"));
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
      copied.value = "Copied to the clipboard.";
    } catch {
      snippetRef.current?.select();
      copied.value = document.execCommand?.("copy") ? "Copied to the clipboard." : "Selected: press Ctrl+C to copy.";
    }
  }

  const live = id.value.trim() !== "";
  return (
    <div class="builder">
      <form class="builder-form" onSubmit={(e) => e.preventDefault()}>
        <fieldset>
          <legend>Timer</legend>
          <label>
            Live timer id <small>(optional, from the API)</small>
            <input name="id" value={id} onInput={text(id)} placeholder="tmr_…" autocomplete="off" />
          </label>
          {!live && (
            <label>
              Type
              <select name="type" value={type} onChange={(e) => type.value = e.currentTarget.value as TimerType}>
                <option value="countdown">Countdown</option>
                <option value="event">Event (count to a date)</option>
                <option value="interval">Interval (work / rest rounds)</option>
              </select>
            </label>
          )}
          <label>
            Title
            <input name="title" value={title} maxLength={100} onInput={text(title)} />
          </label>
          {!live && type.value === "countdown" && (
            <div class="builder-row">
              <label>
                Hours <input name="hours" type="number" min={0} max={8760} value={hours} onInput={num(hours)} />
              </label>
              <label>
                Minutes <input name="minutes" type="number" min={0} max={59} value={minutes} onInput={num(minutes)} />
              </label>
              <label>
                Seconds <input name="seconds" type="number" min={0} max={59} value={seconds} onInput={num(seconds)} />
              </label>
            </div>
          )}
          {!live && type.value === "event" && (
            <div class="builder-row">
              <label>
                Date and time
                <input name="target_date" type="datetime-local" value={target} onInput={text(target)} />
              </label>
              <label>
                Time zone
                <input name="timezone" list="builder-zones" value={timezone} onInput={text(timezone)} />
                <datalist id="builder-zones">{zones.value.map((z) => <option key={z} value={z} />)}</datalist>
              </label>
            </div>
          )}
          {!live && type.value === "interval" && (
            <div class="builder-row">
              <label>
                Work (s) <input name="work" type="number" min={1} max={86400} value={work} onInput={num(work)} />
              </label>
              <label>
                Rest (s) <input name="rest" type="number" min={0} max={86400} value={rest} onInput={num(rest)} />
              </label>
              <label>
                Rounds <input name="rounds" type="number" min={1} max={10000} value={rounds} onInput={num(rounds)} />
              </label>
            </div>
          )}
        </fieldset>
        <fieldset>
          <legend>Look</legend>
          <div class="builder-row">
            <label>
              Theme
              <select name="theme" value={theme} onChange={(e) => theme.value = e.currentTarget.value}>
                <option value="dark">Dark</option>
                <option value="light">Light</option>
                <option value="auto">Auto (follows the device)</option>
              </select>
            </label>
            <label>
              Colour <input name="primary_color" type="color" value={color} onInput={text(color)} />
            </label>
            <label>
              Language
              <select name="lang" value={lang} onChange={(e) => lang.value = e.currentTarget.value}>
                {p.languages.map((l) => <option key={l.code} value={l.code}>{l.name}</option>)}
              </select>
            </label>
          </div>
          <div class="builder-checks">
            <label>
              <input type="checkbox" name="show_title" checked={showTitle} onChange={check(showTitle)} /> Show title
            </label>
            {(live || type.value === "event") && (
              <label>
                <input type="checkbox" name="show_date" checked={showDate} onChange={check(showDate)} /> Show date
              </label>
            )}
            <label>
              <input type="checkbox" name="alarm" checked={alarm} onChange={check(alarm)} /> Alarm sound
            </label>
            <label>
              <input type="checkbox" name="show_brand" checked={showBrand} onChange={check(showBrand)} /> Show branding
              {" "}
              <small>(hiding it needs a live timer on a paid plan)</small>
            </label>
          </div>
          <div class="builder-row">
            <label>
              Width (px)
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
              Height (px)
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
      </form>
      <div class="builder-out">
        <h3 id="preview-heading">Preview</h3>
        <div class="builder-preview">
          <iframe
            src={preview}
            title={`Preview: ${title.value.trim() || "Timer"}`}
            style={{ width: `${size.value.width}px`, height: `${size.value.height}px`, border: 0 }}
          />
        </div>
        <label class="builder-snippet">
          Embed code
          <textarea ref={snippetRef} name="snippet" readOnly rows={4} value={snippet} />
        </label>
        <p class="builder-copy">
          <button type="button" class="button" onClick={copy}>Copy the code</button>{" "}
          <span role="status" aria-live="polite">{copied}</span>
        </p>
      </div>
    </div>
  );
}
