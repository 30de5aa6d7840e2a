/**
 * /dashboard/account: the account's own settings inside the dashboard's frame. The sections and
 * their forms are sign-in's (routes/auth/account.tsx); they post there and come back here.
 */
import { AccountPanel, type AccountProps } from "../auth/account.tsx";
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
