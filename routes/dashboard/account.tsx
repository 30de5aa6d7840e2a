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

/** A form of this page refused by sign-in's routes: answered in the dashboard's frame, the error beside the form. */
export function accountFrame(c: Context<SessionEnv>, p: AccountProps, status: ContentfulStatusCode): Response {
  // Posted to /account/…: the language switch comes back to this page, not to the form's address.
  const f = { ...frameOf(c as unknown as Ctx), here: "/dashboard/account" };
  return html(c, accountPage(f, { ...p, back: "/dashboard/account", t: authTexts(f.lang) }), status);
}
