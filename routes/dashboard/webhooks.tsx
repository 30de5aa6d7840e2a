/**
 * Webhook signing secret: when it was issued, revealing a sign-up's first secret (once), rotation
 * (the new secret shown once) and early retirement; then the account's endpoints (endpoints.tsx).
 */
import type { ComponentChildren } from "preact";
import { Copy } from "./keys.tsx";
import { dashPage, Filled, type Flash, type Frame, PostForm, When } from "./layout.tsx";

export interface SecretsView {
  currentCreated: number;
  /** The previous secret's end of grace, while it still signs. */
  previousUntil: number | null;
  /** The current secret was never shown to anyone: it may be revealed (once), and a rotation replaces it at once. */
  revealable: boolean;
}

export function webhooksPage(
  f: Frame,
  o: {
    secrets: SecretsView;
    flash: Flash | null;
    revealed?: { secret: string; heading: string };
    /** The Endpoints section (endpoints.tsx), where the plan has timers. */
    endpoints?: ComponentChildren;
  },
) {
  const { t } = f;
  const { secrets } = o;
  return dashPage(f, {
    section: "webhooks",
    title: t.wh_title,
    flash: o.flash,
    children: (
      <>
        <p class="lede">{t.wh_lede}</p>
        {o.revealed && (
          <section class="card card--secret" aria-labelledby="new-secret-heading">
            <h2 id="new-secret-heading">{o.revealed.heading}</h2>
            <p>{t.wh_secret_once}</p>
            <Copy
              id="new-secret"
              label={o.revealed.heading}
              value={o.revealed.secret}
              copy={t.copy}
              copied={t.copied}
              failed={t.copy_failed}
            />
          </section>
        )}
        <section class="card" aria-labelledby="secret-heading">
          <h2 id="secret-heading">{t.wh_current}</h2>
          <p data-secret-created={secrets.currentCreated}>
            <Filled text={t.wh_created} parts={{ date: <When ms={secrets.currentCreated} f={f} /> }} />
          </p>
          {secrets.revealable && (
            <>
              <p>{t.wh_unrevealed}</p>
              <PostForm f={f} action="/dashboard/webhooks/reveal">
                <button type="submit" class="button">{t.wh_reveal}</button>
              </PostForm>
            </>
          )}
          <p class="muted">{secrets.revealable ? t.wh_rotate_unrevealed : t.wh_rotate_note}</p>
          <PostForm f={f} action="/dashboard/webhooks/rotate">
            <button type="submit" class="button">{t.wh_rotate}</button>
          </PostForm>
        </section>
        <section class="card" aria-labelledby="previous-heading">
          <h2 id="previous-heading">{t.wh_previous}</h2>
          {secrets.previousUntil === null ? <p>{t.wh_previous_none}</p> : (
            <>
              <p>
                <Filled text={t.wh_previous_until} parts={{ date: <When ms={secrets.previousUntil} f={f} /> }} />
              </p>
              <p class="muted">{t.wh_retire_note}</p>
              <PostForm f={f} action="/dashboard/webhooks/retire">
                <button type="submit" class="button button--quiet">{t.wh_retire}</button>
              </PostForm>
            </>
          )}
        </section>
        {o.endpoints}
      </>
    ),
  });
}
