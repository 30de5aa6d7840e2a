/** The sign-in side of the service in one value: users, sessions, passkeys and the mailer. */
import type { Config } from "../../config.ts";
import type { LogLine } from "../http.ts";
import type { Store } from "../kv/store.ts";
import type { TimerService } from "../timers/service.ts";
import { createMailer, type Mailer } from "./mailer.ts";
import { Passkeys } from "./passkeys.ts";
import { Sessions } from "./sessions.ts";
import { Users } from "./users.ts";

export interface AuthDeps {
  store: Store;
  config: Config;
  now: () => number;
  timers: TimerService;
  /** Where the development mailer writes (defaults to stdout as JSON lines). */
  log?: (line: LogLine) => void;
  /** Overrides the mailer SMTP_URL selects. */
  mailer?: Mailer;
}

export class Auth {
  readonly mailer: Mailer;
  readonly users: Users;
  readonly sessions: Sessions;
  readonly passkeys: Passkeys;

  constructor(readonly deps: AuthDeps) {
    const { store, config, now } = deps;
    // deno-lint-ignore no-console
    const log = deps.log ?? ((line: LogLine) => console.log(JSON.stringify(line)));
    this.mailer = deps.mailer ?? createMailer({ smtpUrl: config.smtpUrl, siteUrl: config.siteUrl, log, now });
    const onMailError = (e: Error, what = "confirmation") =>
      log({ time: new Date(now()).toISOString(), level: "error", msg: `${what} mail not sent`, error: e.message });
    this.users = new Users({ store, config, now, mailer: this.mailer, onMailError });
    this.sessions = new Sessions({ store, config, now });
    this.passkeys = new Passkeys({ store, config, now });
  }

  /** Middleware: `c.var.session` = {user, account, csrf, record}, or a redirect to /login. */
  requireSession() {
    return this.sessions.requireSession();
  }

  /** Middleware: same-origin and the session's CSRF token on every state-changing request. */
  csrfProtect() {
    return this.sessions.csrfProtect();
  }
}
