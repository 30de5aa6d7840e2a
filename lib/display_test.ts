import assert from "node:assert/strict";
import { publicSnapshot } from "../routes/live.ts";
import {
  clampEmbedSize,
  clockParts,
  embedSnippet,
  fill,
  formatClock,
  formatTargetDate,
  frameAt,
  isTimeZone,
  type LiveSnapshot,
  localDeadline,
  milestone,
  parseTargetDate,
  type Source,
  sourceFromSnapshot,
  splitSeconds,
  spokenDuration,
  textOn,
  validActions,
  widgetUrl,
  zoneOffset,
} from "./display.ts";
import { applyAction, intervalPosition, newTimer, remainingSeconds, type Timer } from "./timers/model.ts";

const T = Date.parse("2026-11-22T12:00:00.000Z");

const countdown = (over: Partial<Source> = {}): Source => ({
  type: "countdown",
  state: "running",
  total_ms: 300_000,
  target: null,
  work_ms: 0,
  rest_ms: 0,
  rounds: null,
  elapsed_ms: 0,
  at: T,
  frozen_ms: null,
  ...over,
});

const interval = (over: Partial<Source> = {}): Source => ({
  ...countdown(),
  type: "interval",
  total_ms: 3 * 30_000,
  work_ms: 20_000,
  rest_ms: 10_000,
  rounds: 3,
  ...over,
});

Deno.test("a running countdown shows whole seconds rounded up and when the next one starts", () => {
  const f = frameAt(countdown(), T + 1500);
  assert.equal(f.state, "running");
  assert.equal(f.seconds, 299);
  assert.equal(f.remaining_ms, 298_500);
  assert.equal(f.next_ms, 500);
  assert.equal(frameAt(countdown(), T).seconds, 300);
  assert.equal(frameAt(countdown(), T + 1000).seconds, 299);
  assert.equal(frameAt(countdown(), T + 999).seconds, 300);
});

Deno.test("a countdown completes at its deadline, not by ticks", () => {
  const src = countdown({ elapsed_ms: 100_000, at: T });
  assert.equal(frameAt(src, T + 199_999).state, "running");
  const done = frameAt(src, T + 200_000);
  assert.equal(done.state, "completed");
  assert.equal(done.seconds, 0);
  assert.equal(done.next_ms, null);
  assert.equal(frameAt(src, T + 10 * 86400_000).seconds, 0, "a tab woken days later is right at once");
});

Deno.test("paused, stopped and idle countdowns are frozen", () => {
  for (const state of ["paused", "stopped", "idle"] as const) {
    const f = frameAt(countdown({ state, elapsed_ms: 100_000 }), T + 50_000);
    assert.equal(f.seconds, 200, state);
    assert.equal(f.next_ms, null, state);
    assert.equal(f.state, state);
  }
  assert.equal(frameAt(countdown({ state: "completed" }), T).seconds, 0);
});

Deno.test("an interval shows its phase, round of rounds and phase countdown", () => {
  const src = interval();
  const at = (s: number) => frameAt(src, T + s * 1000);
  assert.deepEqual([at(0).phase, at(0).round, at(0).seconds], ["work", 1, 20]);
  assert.deepEqual([at(19.5).phase, at(19.5).seconds], ["work", 1]);
  assert.deepEqual([at(20).phase, at(20).round, at(20).seconds], ["rest", 1, 10]);
  assert.deepEqual([at(31).phase, at(31).round, at(31).seconds], ["work", 2, 19]);
  assert.deepEqual([at(85).phase, at(85).round, at(85).seconds], ["rest", 3, 5]);
  assert.equal(at(85).remaining_ms, 5000);
  const done = at(90);
  assert.deepEqual([done.state, done.round, done.rounds, done.seconds], ["completed", 3, 3, 0]);
});

Deno.test("an interval without rest stays in work; an unlimited one counts rounds on", () => {
  const noRest = frameAt(interval({ rest_ms: 0, total_ms: 60_000 }), T + 25_000);
  assert.deepEqual([noRest.phase, noRest.round, noRest.seconds], ["work", 2, 15]);
  const open = frameAt(interval({ rounds: null, total_ms: null }), T + 1000 * 30 * 41 + 5000);
  assert.deepEqual([open.state, open.round, open.rounds, open.remaining_ms], ["running", 42, null, null]);
});

Deno.test("an event counts to its target and completes there whether or not it was started; stopped freezes", () => {
  const target = T + 90_061_000;
  const ev: Source = { ...countdown(), type: "event", total_ms: null, target };
  assert.equal(frameAt(ev, T).seconds, 90_061);
  assert.equal(formatClock(frameAt(ev, T).seconds, "en"), "1 day 01:01:01");
  assert.equal(frameAt({ ...ev, state: "idle" }, T + 61_000).seconds, 90_000);
  // Never "not started" over a running count, never "not started 00:00" forever.
  assert.equal(frameAt({ ...ev, state: "idle" }, T + 61_000).state, "running");
  assert.equal(frameAt({ ...ev, state: "idle" }, target + 5).state, "completed");
  assert.equal(localDeadline({ ...ev, state: "idle" }, 0), target);
  assert.equal(frameAt(ev, target).state, "completed");
  const stopped = frameAt({ ...ev, state: "stopped", frozen_ms: 42_000 }, T + 999_999);
  assert.deepEqual([stopped.seconds, stopped.next_ms], [42, null]);
});

function storedTimer(over: Partial<Timer>): Timer {
  return newTimer({
    id: "tmr_test",
    account_id: "acc",
    type: "countdown",
    theme: "dark",
    duration: 90,
    control_token_hash: "",
    created_at: T,
    expires_at: T + 86400_000,
    ...over,
  });
}

Deno.test("the display agrees with the API's remaining_seconds and interval position at every instant", () => {
  const cases = [
    storedTimer({}),
    storedTimer({ type: "interval", work: 7, rest: 3, rounds: 4, duration: 40 }),
    storedTimer({ type: "interval", work: 5, rest: 0, rounds: null, duration: null }),
  ];
  for (const base of cases) {
    let t = applyAction(base, "start", T).timer;
    t = applyAction(t, "pause", T + 12_300).timer;
    t = applyAction(t, "resume", T + 20_000).timer;
    // A viewer connected at some instant computes every later instant from that one snapshot.
    const snapAt = T + 21_234;
    const src = sourceFromSnapshot(publicSnapshot(t, snapAt, "http://x") as LiveSnapshot);
    for (let now = snapAt; now < T + 70_000; now += 250) {
      const f = frameAt(src, now);
      const rem = remainingSeconds(t, now);
      if (t.type === "countdown") {
        assert.equal(f.seconds, rem, `countdown at +${now - T}`);
      } else {
        const pos = intervalPosition(t, now);
        if (f.state === "completed") continue;
        assert.deepEqual(
          [f.round, f.phase, f.seconds],
          [pos.round, pos.phase, pos.phase_remaining_seconds],
          `+${now - T}`,
        );
      }
    }
  }
});

Deno.test("the local deadline uses the server clock offset", () => {
  const src = countdown({ elapsed_ms: 10_000, at: T });
  // The server is 2 s ahead of this device: the deadline on this device's clock is 2 s earlier.
  assert.equal(localDeadline(src, 2000), T + 290_000 - 2000);
  assert.equal(localDeadline({ ...src, state: "paused" }, 0), null);
});

Deno.test("d/h/m/s formatting shows only what fits, with Intl digits and day units", () => {
  assert.deepEqual(splitSeconds(93_784), { d: 1, h: 2, m: 3, s: 4 });
  assert.equal(formatClock(0, "en"), "00:00");
  assert.equal(formatClock(307, "en"), "05:07");
  assert.equal(formatClock(3907, "en"), "1:05:07");
  assert.equal(formatClock(3 * 86400 + 7507, "en"), "3 days 02:05:07");
  assert.deepEqual(clockParts(3 * 86400, "zh"), { days: "3天", hms: "00:00:00" });
  assert.equal(clockParts(3 * 86400, "ko").days, "3일");
  assert.equal(clockParts(86400, "ja").days, "1 日");
  assert.equal(spokenDuration(3900, "en"), "1 hour, 5 minutes");
  assert.equal(spokenDuration(0, "en"), "0 seconds");
  assert.match(spokenDuration(300, "de"), /5 Minuten/);
});

Deno.test("milestones change only at announced marks", () => {
  assert.equal(milestone(301), 600);
  assert.equal(milestone(300), 300);
  assert.equal(milestone(299), 300);
  assert.equal(milestone(11), 30);
  assert.equal(milestone(10), 10);
  assert.equal(milestone(0), 0);
  assert.equal(milestone(3601), 7200);
  assert.equal(milestone(90_000), 172_800);
  const changes = new Set<number>();
  for (let s = 1200; s >= 0; s--) changes.add(milestone(s));
  assert.deepEqual([...changes], [1800, 900, 600, 300, 120, 60, 30, 10, 0]);
});

Deno.test("target dates: offsets are absolute; wall times are read in the time zone", () => {
  assert.equal(parseTargetDate("2026-12-31T23:59:00Z", "Asia/Tokyo"), Date.parse("2026-12-31T23:59:00Z"));
  assert.equal(parseTargetDate("2027-01-01", "Asia/Tokyo"), Date.parse("2026-12-31T15:00:00Z"));
  assert.equal(parseTargetDate("2027-01-01T00:00", "America/New_York"), Date.parse("2027-01-01T05:00:00Z"));
  assert.equal(parseTargetDate("2026-07-01T12:00", "Europe/Paris"), Date.parse("2026-07-01T10:00:00Z"));
  assert.equal(parseTargetDate("2026-06-01T10:00:00+05:30", "UTC"), Date.parse("2026-06-01T04:30:00Z"));
  assert.equal(parseTargetDate("2026-06-01T10:00:00.250-0200", "UTC"), Date.parse("2026-06-01T12:00:00.250Z"));
  // 02:30 does not exist in Berlin on 2026-03-29; it moves forward to 03:30 CEST.
  assert.equal(parseTargetDate("2026-03-29T02:30", "Europe/Berlin"), Date.parse("2026-03-29T01:30:00Z"));
  // Midnight before a fall-back east of UTC is still summer time (Easter Sunday 2026 in Adelaide).
  assert.equal(parseTargetDate("2026-04-05", "Australia/Adelaide"), Date.parse("2026-04-04T13:30:00Z"));
  assert.equal(parseTargetDate("2026-10-25", "Asia/Jerusalem"), Date.parse("2026-10-24T21:00:00Z"));
  for (const bad of ["2026-02-30", "2026-13-01", "tomorrow", "2026-01-01T25:00", "", "2026-1-1"]) {
    assert.equal(parseTargetDate(bad, "UTC"), null, bad);
  }
  assert.equal(zoneOffset(Date.parse("2026-07-01T00:00:00Z"), "Europe/Paris"), 2 * 3600_000);
  assert.ok(isTimeZone("Asia/Kolkata"));
  assert.ok(!isTimeZone("Mars/Olympus"));
});

Deno.test("an event date is shown in its own zone and language", () => {
  const newYearTokyo = Date.parse("2026-12-31T15:00:00Z");
  assert.equal(formatTargetDate(newYearTokyo, "Asia/Tokyo", "en"), "Fri, January 1, 2027 (Asia/Tokyo)");
  assert.match(formatTargetDate(newYearTokyo, "UTC", "en"), /December 31, 2026.*3:00\sPM.*UTC/);
  assert.match(formatTargetDate(newYearTokyo, "Asia/Tokyo", "ja"), /2027年1月1日/);
  assert.match(formatTargetDate(Date.parse("2026-07-14T20:30:00Z"), "Europe/Paris", "fr"), /14 juillet 2026.*22:30/);
});

Deno.test("text on the primary colour is black or white, whichever contrasts more", () => {
  assert.equal(textOn("FFFFFF"), "#000000");
  assert.equal(textOn("000000"), "#FFFFFF");
  assert.equal(textOn("6C63FF"), "#000000", "4.9:1 against black, 4.3:1 against white");
  assert.equal(textOn("3B3486"), "#FFFFFF");
  assert.equal(textOn("FFD400"), "#000000");
  assert.equal(textOn("not-a-colour"), textOn("6C63FF"), "an invalid colour reads as the default");
});

Deno.test("embed sizes are clamped to 80×40…600×600 (a badge up to a panel) and the snippet is escaped", () => {
  assert.deepEqual(clampEmbedSize(50, 1000), { width: 80, height: 600 });
  assert.deepEqual(clampEmbedSize("640", "30"), { width: 600, height: 40 });
  assert.deepEqual(clampEmbedSize(80, 40), { width: 80, height: 40 });
  assert.deepEqual(clampEmbedSize("abc", ""), { width: 320, height: 240 });
  assert.deepEqual(clampEmbedSize(300.4, 250), { width: 300, height: 250 });
  const snippet = embedSnippet(
    "https://t.example/widget?duration=60&title=a%22b",
    { width: 90, height: 900 },
    '"><b>x',
  );
  assert.equal(
    snippet,
    '<iframe src="https://t.example/widget?duration=60&amp;title=a%22b" style="width:90px;height:600px;border:0" ' +
      'loading="lazy" title="&quot;&gt;&lt;b&gt;x"></iframe>',
  );
});

Deno.test("widget URLs leave out defaults", () => {
  const base = "https://t.example";
  assert.equal(
    widgetUrl(base, { type: "countdown", duration: 300, theme: "dark", lang: "en" }),
    `${base}/widget?duration=300`,
  );
  assert.equal(
    widgetUrl(base, {
      type: "interval",
      work: 30,
      rest: 10,
      rounds: 8,
      title: " HIIT ",
      primary_color: "ff0000",
      alarm: false,
      show_date: false,
    }),
    `${base}/widget?type=interval&work=30&title=HIIT&primary_color=FF0000&alarm=0`,
  );
  assert.equal(
    widgetUrl(base, { id: "tmr_x", type: "countdown", duration: 5, show_brand: false, show_date: false }),
    `${base}/widget?id=tmr_x&show_date=0&show_brand=0`,
  );
  assert.equal(
    widgetUrl(base, { type: "event", target_date: "2027-01-01T00:00", timezone: "Asia/Tokyo" }),
    `${base}/widget?type=event&target_date=2027-01-01T00%3A00&timezone=Asia%2FTokyo`,
  );
});

Deno.test("the control page offers only the actions valid in each state", () => {
  assert.deepEqual(validActions("countdown", "idle"), ["start", "reset"]);
  assert.deepEqual(validActions("countdown", "running"), ["pause", "stop", "reset"]);
  assert.deepEqual(validActions("event", "running"), ["stop", "reset"]);
  assert.deepEqual(validActions("interval", "paused"), ["resume", "stop", "reset"]);
  assert.deepEqual(validActions("countdown", "completed"), ["reset"]);
  assert.deepEqual(validActions("event", "stopped"), ["reset"]);
});

Deno.test("fill replaces known placeholders only", () => {
  assert.equal(fill("Round {n} of {total} {x}", { n: 2, total: 8 }), "Round 2 of 8 {x}");
});

Deno.test("target dates in years 0–99 are those years, not 1900–1999", () => {
  assert.equal(parseTargetDate("0050-06-01T00:00:00Z", "UTC"), Date.parse("0050-06-01T00:00:00Z"));
  assert.equal(parseTargetDate("0004-02-29", "UTC"), Date.parse("0004-02-29T00:00:00Z"), "a leap day of year 4");
  assert.equal(parseTargetDate("0099-12-31T18:00", "Europe/Paris"), Date.parse("0099-12-31T18:00:00Z") - 561_000);
  assert.equal(parseTargetDate("2027-01-01", "Asia/Tokyo"), Date.parse("2026-12-31T15:00:00Z"));
});

Deno.test("a face's zone turns at the thresholds, agrees with the API, and overtime counts up past zero", () => {
  const src = countdown({ total_ms: 60_000, warn_ms: 20_000, danger_ms: 5_000 });
  assert.equal(frameAt(src, T + 39_999).zone, "normal");
  assert.equal(frameAt(src, T + 40_000).zone, "warning");
  assert.equal(frameAt(src, T + 55_000).zone, "danger");
  assert.equal(frameAt(countdown({ state: "idle", total_ms: 10_000, warn_ms: 20_000 }), T).zone, "normal");
  const over = countdown({ total_ms: 60_000, overtime: true });
  const f = frameAt(over, T + 64_300);
  assert.equal(f.state, "running");
  assert.equal(f.zone, "overtime");
  assert.equal(f.seconds, 4);
  assert.equal(f.next_ms, 700);
  assert.equal(frameAt(countdown({ total_ms: 60_000 }), T + 64_300).state, "completed");
  // The server's view and the face's agree at every instant.
  const stored = newTimer({
    id: "tmr_x",
    account_id: "acct_x",
    type: "countdown",
    duration: 60,
    warn_at: 20,
    danger_at: 5,
    overtime: true,
    control_token_hash: "",
    created_at: T,
    expires_at: T + 86400_000,
  });
  const running = applyAction(stored, "start", T).timer;
  for (const at of [T + 1000, T + 40_000, T + 56_000, T + 61_000]) {
    const snap = publicSnapshot(running, at, "https://x.test") as LiveSnapshot & { timer: { zone: string } };
    assert.equal(frameAt(sourceFromSnapshot(snap), at).zone, snap.timer.zone, `at +${at - T} ms`);
  }
});

Deno.test("an event stopped in overtime shows how far past zero it stopped, as the API says", () => {
  const target = T + 60_000;
  const event = newTimer({
    id: "tmr_e",
    account_id: "acct_x",
    type: "event",
    target_date: new Date(target).toISOString(),
    duration: 60,
    overtime: true,
    control_token_hash: "",
    created_at: T,
    expires_at: T + 86400_000,
  });
  const stopped = applyAction(event, "stop", target + 5_400).timer;
  const snap = publicSnapshot(stopped, target + 9_000, "https://x.test") as LiveSnapshot & {
    timer: { zone: string; overtime_seconds: number };
  };
  assert.equal(snap.timer.zone, "overtime");
  assert.equal(snap.timer.overtime_seconds, 5);
  const f = frameAt(sourceFromSnapshot(snap), target + 9_000);
  assert.deepEqual([f.state, f.zone, f.seconds, f.next_ms], ["stopped", "overtime", 5, null]);
});
