/**
 * The embed builder's view options (components/view_params.ts): mirror, transparent background,
 * delay, time of day and the progress bar. The builder adds them to the widget's URL, so the
 * preview shows each at once.
 */
import { type Signal, useSignal } from "@preact/signals";
import type { JSX } from "preact";
import type { ScreenTexts } from "../lib/i18n_screens.ts";
import { MAX_DELAY_S, type Mirror, withView } from "./view_params.ts";

export interface BuilderViewState {
  mirror: Signal<Mirror | "">;
  transparent: Signal<boolean>;
  delay: Signal<number>;
  clock: Signal<boolean>;
  clockZone: Signal<string>;
  hideProgress: Signal<boolean>;
  /** The widget URL with the chosen view. */
  apply(url: string): string;
  /** The snippet, its frame set to the default colour scheme when transparent (see static/screens.css). */
  snippet(html: string): string;
  /** Style of the preview's iframe. */
  frameStyle(): JSX.CSSProperties;
}

export function useBuilderView(): BuilderViewState {
  const mirror = useSignal<Mirror | "">("");
  const transparent = useSignal(false);
  const delay = useSignal(0);
  const clock = useSignal(false);
  const clockZone = useSignal("");
  const hideProgress = useSignal(false);
  return {
    mirror,
    transparent,
    delay,
    clock,
    clockZone,
    hideProgress,
    apply: (url) =>
      withView(url, {
        mirror: mirror.value || null,
        transparent: transparent.value,
        delay: Number.isInteger(delay.value) ? delay.value : 0,
        clock: clock.value,
        clockZone: clockZone.value.trim() || null,
        hide: hideProgress.value ? ["progress"] : [],
      }),
    snippet: (html) => transparent.value ? html.replace(";border:0", ";border:0;color-scheme:normal") : html,
    frameStyle: () => transparent.value ? { colorScheme: "normal" } : {},
  };
}

export function BuilderView(p: { view: BuilderViewState; st: ScreenTexts; zones: string[] }) {
  const { view: v, st } = p;
  const check = (s: Signal<boolean>) => (e: Event) => s.value = (e.currentTarget as HTMLInputElement).checked;
  return (
    <fieldset>
      <legend>{st.b_screens}</legend>
      <div class="builder-row">
        <label>
          {st.b_mirror}
          <select name="mirror" value={v.mirror} onChange={(e) => v.mirror.value = e.currentTarget.value as Mirror}>
            <option value="">{st.b_mirror_none}</option>
            <option value="h">{st.b_mirror_h}</option>
            <option value="v">{st.b_mirror_v}</option>
            <option value="both">{st.b_mirror_both}</option>
          </select>
        </label>
        <label>
          {st.b_delay}
          <input
            name="delay"
            type="number"
            min={0}
            max={MAX_DELAY_S}
            step={1}
            value={v.delay}
            onInput={(e) => {
              const n = e.currentTarget.valueAsNumber;
              v.delay.value = Number.isFinite(n) ? Math.min(MAX_DELAY_S, Math.max(0, n)) : 0;
            }}
          />
        </label>
      </div>
      <div class="builder-checks">
        <label>
          <input type="checkbox" name="transparent" checked={v.transparent} onChange={check(v.transparent)} />{" "}
          {st.b_transparent}
        </label>
        <label>
          <input type="checkbox" name="clock" checked={v.clock} onChange={check(v.clock)} /> {st.b_clock}
        </label>
        <label>
          <input type="checkbox" name="hide_progress" checked={v.hideProgress} onChange={check(v.hideProgress)} />{" "}
          {st.b_hide_progress}
        </label>
      </div>
      {v.clock.value && (
        <label>
          {st.b_clock_zone} <small>{st.b_clock_zone_note}</small>
          <input
            name="clock_zone"
            list="builder-clock-zones"
            value={v.clockZone}
            onInput={(e) => v.clockZone.value = e.currentTarget.value}
          />
          <datalist id="builder-clock-zones">{p.zones.map((z) => <option key={z} value={z} />)}</datalist>
        </label>
      )}
    </fieldset>
  );
}
