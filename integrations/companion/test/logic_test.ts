/**
 * The Companion module's pure logic: the control link, the SSE parser, and the face it computes
 * (checked against the service's own pages' face maths, lib/face.ts, at many instants).
 */
import assert from "node:assert/strict";
import { ConfigProblem, parseTarget } from "../src/link.ts";
import { EventStream, SseParser } from "../src/sse.ts";
import { faceAt, feedbacksOf, formatHms, type LiveSnapshot, variablesOf } from "../src/state.ts";
import { frameAt, sourceFromSnapshot } from "../../../lib/face.ts";

Deno.test("a control link gives site, timer id and token; a site URL given wins", () => {
  assert.deepEqual(
    parseTarget("", "https://timers.example.com/c/tmr_abc123#tct_secret"),
    {
      site: "https://timers.example.com",
      timerId: "tmr_abc123",
      token: "tct_secret",
    },
  );
  assert.deepEqual(
    parseTarget(undefined, " https://example.com/timers/c/tmr_x/#tct_y "),
    {
      site: "https://example.com/timers",
      timerId: "tmr_x",
      token: "tct_y",
    },
  );
  assert.equal(
    parseTarget("http://10.0.0.5:8000/", "https://timers.example.com/c/tmr_a#t")
      .site,
    "http://10.0.0.5:8000",
  );
});

Deno.test("a control link without a token, a timer id or http(s) is refused, naming the field", () => {
  const cases: [string | undefined, string | undefined, string, RegExp][] = [
    ["", "", "control_link", /paste the timer's control link/],
    [
      "",
      "https://timers.example.com/c/tmr_abc",
      "control_link",
      /no token after #/,
    ],
    [
      "",
      "https://timers.example.com/v/tmr_abc#tok",
      "control_link",
      /\/c\/<timer_id>/,
    ],
    ["", "not a link", "control_link", /absolute http\(s\) address/],
    [
      "",
      "ftp://timers.example.com/c/tmr_a#t",
      "control_link",
      /http:\/\/ or https:\/\//,
    ],
    [
      "timers.example.com",
      "https://timers.example.com/c/tmr_a#t",
      "site_url",
      /site URL/,
    ],
  ];
  for (const [site, link, field, message] of cases) {
    assert.throws(() => parseTarget(site, link), (e) => {
      assert.ok(e instanceof ConfigProblem);
      assert.equal(e.field, field);
      assert.match(e.message, message);
      return true;
    });
  }
});

Deno.test("the SSE parser: CRLF, LF and CR lines, split chunks, multi-line data, comments, retry", () => {
  const events: { event: string; data: string }[] = [];
  const p = new SseParser((e) => events.push(e));
  p.push('retry: 1000\n\n: comment\nevent: timer\ndata: {"a"');
  p.push(":1}\n\nevent: clock\r\ndata: x\r");
  p.push("\ndata: y\r\n\r\ndata:z\r\rdata\n\nevent: nodata\n\n");
  assert.deepEqual(events, [
    { event: "timer", data: '{"a":1}' },
    { event: "clock", data: "x\ny" },
    { event: "message", data: "z" },
    { event: "message", data: "" },
  ]);
  assert.equal(p.retry, 1000);
});

const snap = (
  timer: Partial<LiveSnapshot["timer"]>,
  elapsed_ms = 0,
  server_now = 1_000_000,
): LiveSnapshot => ({
  timer: {
    timer_id: "tmr_x",
    title: "Keynote",
    type: "countdown",
    state: "running",
    duration: 120,
    remaining_seconds: 120,
    warn_at: 60,
    danger_at: 15,
    overtime: false,
    message: null,
    ...timer,
  },
  server_now,
  elapsed_ms,
});

Deno.test("the face matches the pages' face maths (countdown, overtime, paused, event, interval)", () => {
  const t0 = 1_000_000;
  const snapshots = [
    snap({}),
    snap({ overtime: true }, 100_000),
    snap({ state: "paused" }, 70_500),
    snap({ state: "idle" }),
    snap({ state: "completed" }, 120_000),
    snap({
      type: "event",
      duration: 300,
      target_date: new Date(t0 + 90_000).toISOString(),
      overtime: true,
    }),
    snap({ type: "event", state: "stopped", remaining_seconds: 42 }),
    snap({
      type: "interval",
      duration: 150,
      work: 40,
      rest: 10,
      rounds: 3,
      warn_at: 10,
      danger_at: 3,
    }, 5_000),
    snap({
      type: "interval",
      duration: null,
      work: 20,
      rest: 0,
      rounds: null,
      warn_at: 5,
      danger_at: null,
    }),
  ];
  for (const s of snapshots) {
    for (let dt = 0; dt <= 200_000; dt += 250) {
      const mine = faceAt(s, t0 + dt);
      const theirs = frameAt(sourceFromSnapshot(s as never), t0 + dt);
      const label = `${s.timer.type} ${s.timer.state} +${dt}ms`;
      assert.equal(mine.state, theirs.state, label);
      assert.equal(mine.zone, theirs.zone, label);
      if (theirs.zone === "overtime") {
        assert.equal(
          Math.floor(mine.overtime_ms / 1000),
          theirs.seconds,
          label,
        );
      } else {assert.equal(
          Math.ceil(mine.remaining_ms / 1000),
          theirs.seconds,
          label,
        );}
      assert.equal(mine.round, theirs.round, label);
    }
  }
});

Deno.test("variables and feedbacks of a face: hms, zone, overtime, round, message and blackout", () => {
  const s = snap({
    overtime: true,
    message: { text: "Wrap up", color: "red", flash: 0, blackout: false },
  }, 55_200);
  const face = faceAt(s, 1_000_000);
  assert.deepEqual(variablesOf(s, face), {
    remaining_hms: "01:05",
    remaining_seconds: 65,
    zone: "normal",
    overtime_hms: "00:00",
    title: "Keynote",
    round: "",
  });
  const warn = faceAt(s, 1_006_000);
  assert.equal(variablesOf(s, warn).zone, "warning");
  assert.deepEqual(feedbacksOf(s, warn, true), {
    running: true,
    paused: false,
    warning: true,
    danger: false,
    overtime: false,
    message_shown: true,
    blackout: false,
    connected: true,
  });
  const over = faceAt(s, 1_000_000 + 64_800 + 3_723_000);
  assert.deepEqual([
    variablesOf(s, over).remaining_hms,
    variablesOf(s, over).overtime_hms,
  ], ["00:00", "1:02:03"]);
  assert.equal(feedbacksOf(s, over, true).overtime, true);
  const dark = snap({
    message: { text: "", color: "white", flash: 0, blackout: true },
  });
  assert.deepEqual([
    feedbacksOf(dark, faceAt(dark, 1_000_000), false).message_shown,
    feedbacksOf(dark, null, false).blackout,
  ], [
    false,
    true,
  ]);
  assert.equal(formatHms(3 * 86400 + 2 * 3600 + 5 * 60 + 7), "3d 02:05:07");
});

Deno.test("the event stream: retries a failed open with backoff, reads events, resumes after a break, stops at 404", async () => {
  let hits = 0;
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => {
      hits++;
      if (hits === 1) return new Response("busy", { status: 503 });
      if (hits === 2) {
        return new Response("retry: 5\n\nevent: timer\ndata: 1\n\n", {
          headers: { "content-type": "text/event-stream" },
        });
      }
      if (hits === 3) {
        return new Response("data: 2\n\n", {
          headers: { "content-type": "text/event-stream" },
        });
      }
      return new Response("{}", { status: 404 });
    },
  );
  const seen: string[] = [];
  const gone = Promise.withResolvers<void>();
  const stream = new EventStream(
    `http://127.0.0.1:${server.addr.port}/live/tmr_x`,
    {
      onOpen: () => seen.push("open"),
      onEvent: (e) => seen.push(`${e.event}:${e.data}`),
      onDown: (reason, ms) => seen.push(`down ${ms}: ${reason}`),
      onGone: () => gone.resolve(),
    },
    { firstRetryMs: 10 },
  );
  await gone.promise;
  await stream.close();
  await server.shutdown();
  assert.deepEqual(seen, [
    "down 10: the live stream answered HTTP 503",
    "open",
    "timer:1",
    "down 5: the stream ended",
    "open",
    "message:2",
    "down 5: the stream ended",
  ]);
});

Deno.test("the Companion SDK version is the same for the module build and for Deno's tests", async () => {
  const pkg = JSON.parse(
    await Deno.readTextFile(new URL("../package.json", import.meta.url)),
  );
  const deno = JSON.parse(
    await Deno.readTextFile(new URL("../../../deno.json", import.meta.url)),
  );
  assert.equal(
    deno.imports["@companion-module/base"],
    `npm:@companion-module/base@${pkg.dependencies["@companion-module/base"]}`,
  );
});
