/**
 * Does a sign-in flood from many addresses delay timers? The real app and its scheduler on an
 * in-memory KV, in this process (as the server runs them: one event loop); 200 countdowns due in
 * 2 s, each with a webhook to a receiver on 127.0.0.1 (also in this process); meanwhile, with
 * `--flood`, `CONCURRENCY` loops POST /login with wrong passwords, each request from a fresh IPv6
 * /64 of one /48 and a fresh email, so no per-address or per-email throttle ever applies.
 * Prints the webhook lateness (arrival − deadline) p50/p99/max and what the flood got.
 *
 *   deno run -A bench/login_flood.ts [--flood] [--concurrency=64] [--timers=200] [--budget=<hashes/s>]
 */
import { DEFAULT_PLANS, loadConfig } from "../config.ts";
import { receiver, setup } from "../tests/helpers.ts";

const arg = (name: string) => Deno.args.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
const args = { flood: Deno.args.includes("--flood") };
const CONCURRENCY = Number(arg("concurrency") ?? 64);
const TIMERS = Number(arg("timers") ?? 200);
// The production default unless told (tests' configuration sets a budget their clocks never meet).
const BUDGET = Number(arg("budget") ?? loadConfig({}).passwordHashesPerSecond);
const SITE = "http://timers.test";

const ROOMY = structuredClone(DEFAULT_PLANS);
ROOMY.pro = { ...ROOMY.pro, per_minute: 100_000, per_day: null, timers: null };
const s = await setup({
  realTime: true,
  config: {
    plans: ROOMY,
    trustProxyHops: 1,
    passwordHashesPerSecond: BUDGET,
    sweepIntervalMs: 1000,
    webhookTimeoutMs: 10_000,
  },
});
s.app.scheduler.start();
const rx = receiver();
const ids: string[] = [];
for (let i = 0; i < TIMERS; i++) {
  ids.push((await s.create({ type: "countdown", duration: 2, title: `t${i}`, webhook_url: rx.url })).timer_id);
}

// One pre-session CSRF cookie and token, reused by every attempt (it is bound to the cookie, not the address).
const page = await s.app.app.request(`${SITE}/login`, { headers: { "x-forwarded-for": "198.51.100.1" } });
const cookie = page.headers.getSetCookie()[0].split(";")[0];
const csrf = /name="_csrf" value="([^"]+)"/.exec(await page.text())![1];

let stop = false;
let n = 0;
const statuses = new Map<number, number>();
async function flood() {
  while (!stop) {
    const k = n++;
    // One /48 holds 65 536 /64s; this run sends fewer attempts than that.
    const ip = `2001:db8:1:${(k & 0xffff).toString(16)}::1`;
    const res = await s.app.app.request(`${SITE}/login`, {
      method: "POST",
      headers: {
        "x-forwarded-for": ip,
        cookie,
        origin: SITE,
        "sec-fetch-site": "same-origin",
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({ _csrf: csrf, email: `x${k}@example.com`, password: "wrong password 123" }),
    });
    await res.body?.cancel();
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
  }
}

// Event-loop lag: how late a 10 ms interval fires.
const lags: number[] = [];
let last = performance.now();
const lagTimer = setInterval(() => {
  const t = performance.now();
  lags.push(t - last - 10);
  last = t;
}, 10);

const workers = args.flood ? Array.from({ length: CONCURRENCY }, () => flood()) : [];
await new Promise((r) => setTimeout(r, 1000));
const floodStart = performance.now();
const n0 = n;
await Promise.all(ids.map((id) => s.act(id, "start")));
// Every completion: started + 2 s; timer.started webhooks are not counted.
const completed = () => rx.received.filter((r) => r.json.event === "timer.completed");
const deadline = Date.now() + 60_000;
while (completed().length < TIMERS && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
const sent = n - n0;
const secs = (performance.now() - floodStart) / 1000;
stop = true;
await Promise.all(workers);
clearInterval(lagTimer);

const late = completed().map((r) => r.at - Date.parse((r.json.data as { completed_at: string }).completed_at))
  .sort((a, b) => a - b);
const q = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor(p * xs.length))];
lags.sort((a, b) => a - b);
const out = {
  flood: args.flood,
  budget: s.config.passwordHashesPerSecond,
  concurrency: args.flood ? CONCURRENCY : 0,
  arrived: `${late.length}/${TIMERS}`,
  lateness_ms: { p50: q(late, 0.5), p99: q(late, 0.99), max: late.at(-1) },
  loop_lag_ms: { p50: Math.round(q(lags, 0.5)), p99: Math.round(q(lags, 0.99)), max: Math.round(lags.at(-1)!) },
  login_attempts_per_s: Math.round(sent / secs),
  login_statuses: Object.fromEntries(statuses),
};
// deno-lint-ignore no-console
console.log(JSON.stringify(out));
await s.close();
await rx.close();
