/** API keys: the account's named keys, a new key shown once, revocation. */
import DashboardCopy from "../../islands/DashboardCopy.tsx";
import { fill } from "../../lib/display.ts";
import { island } from "../../lib/islands.tsx";
import { CellLabel, dashPage, type Flash, type Frame, PostForm, When } from "./layout.tsx";

export const Copy = island("DashboardCopy", DashboardCopy);

/** A key as the page lists it (never its secret). */
export interface KeyRow {
  id: string;
  name: string;
  prefix: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

export function keysPage(
  f: Frame,
  o: { keys: KeyRow[]; flash: Flash | null; created?: { name: string; secret: string }; nameError?: string },
) {
  const { t } = f;
  const live = o.keys.filter((k) => k.revoked_at === null);
  return dashPage(f, {
    section: "keys",
    title: t.keys_title,
    flash: o.flash,
    children: (
      <>
        <p class="lede">{t.keys_lede}</p>
        {o.created && (
          <section class="card card--secret" aria-labelledby="new-key-heading">
            <h2 id="new-key-heading">{fill(t.key_new_title, { name: o.created.name })}</h2>
            <p>{t.key_once}</p>
            <Copy
              id="new-key"
              label={t.key_new}
              value={o.created.secret}
              copy={t.copy}
              copied={t.copied}
              failed={t.copy_failed}
            />
          </section>
        )}
        <section class="card" aria-labelledby="keys-heading">
          <h2 id="keys-heading">{t.keys_title}</h2>
          {live.length === 0 ? <p>{t.keys_none}</p> : (
            <div class="table-wrap">
              <table class="list keys cards">
                <thead>
                  <tr>
                    <th scope="col">{t.key_name}</th>
                    <th scope="col">{t.key_prefix}</th>
                    <th scope="col">{t.key_created}</th>
                    <th scope="col">{t.key_last_used}</th>
                    <th scope="col">
                      <span class="sr-only">{t.key_revoke}</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {live.map((k) => (
                    <tr key={k.id} data-key={k.id}>
                      <th scope="row">{k.name}</th>
                      <td>
                        <CellLabel>{t.key_prefix}</CellLabel>
                        <code>{k.prefix}…</code>
                      </td>
                      <td>
                        <CellLabel>{t.key_created}</CellLabel>
                        <When ms={k.created_at} f={f} />
                      </td>
                      <td>
                        <CellLabel>{t.key_last_used}</CellLabel>
                        <When ms={k.last_used_at} f={f} />
                      </td>
                      <td>
                        <PostForm f={f} action={`/dashboard/keys/${encodeURIComponent(k.id)}/revoke`}>
                          <button
                            type="submit"
                            class="button button--small button--danger"
                            aria-label={fill(t.key_revoke_named, { name: k.name })}
                          >
                            {t.key_revoke}
                          </button>
                        </PostForm>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>
        <section class="card" aria-labelledby="create-key-heading">
          <h2 id="create-key-heading">{t.key_create}</h2>
          <PostForm f={f} action="/dashboard/keys" class="form-inline">
            <label for="key-name">{t.key_name}</label>
            <input
              id="key-name"
              name="name"
              required
              maxLength={60}
              autocomplete="off"
              placeholder="production"
              aria-invalid={o.nameError ? "true" : undefined}
              aria-describedby={o.nameError ? "key-name-error" : undefined}
              autofocus={o.nameError ? true : undefined}
            />
            <button type="submit" class="button">{t.key_create}</button>
            {o.nameError && <p id="key-name-error" class="field-error">{o.nameError}</p>}
          </PostForm>
        </section>
      </>
    ),
  });
}
