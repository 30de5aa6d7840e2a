/**
 * /dashboard/account: the account's own settings inside the dashboard's frame. The sections and
 * their forms are sign-in's (routes/auth/account.tsx); they post there and come back here.
 */
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { SessionEnv } from "../../lib/accounts/sessions.ts";
import { AccountPanel, type AccountProps } from "../auth/account.tsx";
import { authTexts } from "../auth/texts.ts";
import { type Ctx, frameOf, html } from "./http.ts";
import { dashPage, type Frame } from "./layout.tsx";

export function accountPage(f: Frame, p: AccountProps): string {
  return dashPage(f, {
    section: "account",
    title: f.t.nav_account,
    css: ["auth.css"],
    children: (
      <div class="auth dash-account">
        <div class="card">
          <AccountPanel {...p} />
        </div>
      </div>
    ),
  });
}

/**
 * A form of this page refused by sign-in's routes: answered in the dashboard's frame, the error
 * beside the form. `secure`: whether the dashboard's cookies are `__Host-` ones (sign-in's
 * routes do not pass through the dashboard's guards, which say so for its own pages).
 */
export function accountFrame(secure: boolean) {
  return (c: Context<SessionEnv>, p: AccountProps, status: ContentfulStatusCode): Response => {
    const ctx = c as unknown as Ctx;
    ctx.set("secureCookies", secure);
    // Posted to /account/…: the language switch comes back to this page, not to the form's address.
    const f = { ...frameOf(ctx), here: "/dashboard/account" };
    return html(c, accountPage(f, { ...p, back: "/dashboard/account", t: authTexts(f.lang) }), status);
  };
}
