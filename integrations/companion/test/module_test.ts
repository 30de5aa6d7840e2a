/**
 * The Companion module against the real service in its own process (main.ts on 127.0.0.1, a KV
 * file, a pro key from scripts/keys.ts). Companion's host is stubbed at the SDK boundary only
 * (fake_companion.ts): the module's real InstanceBase, connection and definitions run as in
 * Companion, and the test reads what Companion would show (variables and feedback values).
 */
import assert from "node:assert/strict";
import { TimerInstance } from "../src/instance.ts";
import { formatHms } from "../src/state.ts";
import { FakeCompanion, instanceProps } from "./fake_companion.ts";
import { startService } from "./service.ts";

const FEEDBACKS = [
  "running",
  "paused",
  "warning",
  "danger",
  "overtime",
  "message_shown",
  "blackout",
  "connected",
];

Deno.test({
  name: "Companion module: a real timer driven by its actions; remaining_hms follows, feedbacks flip",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const service = await startService();
    const { api } = service;
    const host = new FakeCompanion();
    let instance: TimerInstance | null = null;
    try {
      const created = await api("POST", "/timers", service.apiKey, {
        type: "countdown",
        duration: 120,
        title: "Keynote",
        warn_at: 60,
        danger_at: 15,
      });
      assert.equal(created.status, 201);
      const id: string = created.body.timer_id;
      const controlLink: string = created.body.control_url;
      const token = new URL(controlLink).hash.slice(1);
      const read = async () => (await api("GET", `/timers/${id}`, token)).body;

      instance = new TimerInstance(instanceProps("timer-1"));
      const v = (name: string) => host.variables.get(name);
      const fb = (name: string) => host.feedbackValues.get(`fb_${name}`);
      const status = () => host.statuses.at(-1)?.status;

      // A link without its token: Companion shows the config as bad and why.
      await host.call("init", {
        label: "timer",
        isFirstInit: false,
        config: { site_url: "" },
        secrets: { control_link: controlLink.split("#")[0] },
        lastUpgradeIndex: -1,
        feedbacks: {},
        actions: {},
      });
      await host.until("bad config", () => status() === "bad_config");
      assert.match(host.statuses.at(-1)!.message!, /no token after #/);
      const actionIds = (host.definitions.setActionDefinitions as { actions: { id: string }[] })
        .actions.map((a) => a.id);
      for (
        const a of [
          "start",
          "pause",
          "resume",
          "reset",
          "stop",
          "adjust",
          "message_show",
          "message_hide",
          "blackout",
        ]
      ) {
        assert.ok(actionIds.includes(a), a);
      }
      const feedbackIds = (host.definitions.setFeedbackDefinitions as {
        feedbacks: { id: string }[];
      }).feedbacks
        .map((f) => f.id);
      assert.deepEqual(feedbackIds.toSorted(), FEEDBACKS.toSorted());
      const variableIds = (host.definitions.setVariableDefinitions as {
        variables: { id: string }[];
      }).variables
        .map((x) => x.id);
      assert.deepEqual(variableIds, [
        "remaining_hms",
        "remaining_seconds",
        "zone",
        "overtime_hms",
        "title",
        "round",
      ]);
      const presets = (host.definitions.setPresetDefinitions as { presets: { id: string; style: { text: string } }[] })
        .presets;
      assert.equal(presets.find((p) => p.id === "clock")?.style.text, "$(timer:remaining_hms)");

      // Fixed: the whole link. One button per feedback, as Companion reports its feedback instances.
      await host.call("updateConfigAndLabel", {
        label: "timer",
        config: { site_url: "" },
        secrets: { control_link: controlLink },
      });
      await host.call("updateFeedbacks", {
        feedbacks: Object.fromEntries(FEEDBACKS.map((f, i) => [`fb_${f}`, {
          id: `fb_${f}`,
          controlId: `bank:1:${i}`,
          feedbackId: f,
          options: {},
          isInverted: false,
          disabled: false,
          upgradeIndex: null,
        }])),
      });
      await host.until(
        "connected, idle at 02:00",
        () => fb("connected") === true && v("remaining_hms") === "02:00",
      );
      assert.equal(status(), "ok");
      assert.deepEqual([
        v("title"),
        v("zone"),
        v("remaining_seconds"),
        v("round"),
      ], ["Keynote", "normal", 120, ""]);
      assert.deepEqual([fb("running"), fb("paused"), fb("warning")], [
        false,
        false,
        false,
      ]);

      let n = 0;
      const press = async (
        actionId: string,
        options: Record<string, unknown> = {},
      ) => {
        const answer = await host.call<
          { success: boolean; errorMessage?: string }
        >("executeAction", {
          action: {
            id: `a${++n}`,
            controlId: "bank:1:0",
            actionId,
            options,
            disabled: false,
            upgradeIndex: null,
          },
          surfaceId: undefined,
        });
        return answer;
      };

      assert.equal((await press("start")).success, true);
      // It counts locally (250 ms recomputation), not by polling: the seconds go down on their own.
      await host.until(
        "running, counting down",
        () => fb("running") === true && Number(v("remaining_seconds")) <= 118,
      );
      const api1 = (await read()).remaining_seconds;
      assert.ok(
        Math.abs(Number(v("remaining_seconds")) - api1) <= 1,
        `${v("remaining_seconds")} vs API ${api1}`,
      );
      assert.equal(
        v("remaining_hms"),
        formatHms(Number(v("remaining_seconds"))),
      );

      // Take away 65 s: into the warning zone (warn_at 60).
      assert.equal((await press("adjust", { seconds: -65 })).success, true);
      await host.until(
        "warning zone",
        () => fb("warning") === true && v("zone") === "warning",
      );
      const api2 = (await read()).remaining_seconds;
      assert.ok(
        Math.abs(Number(v("remaining_seconds")) - api2) <= 1,
        `${v("remaining_seconds")} vs API ${api2}`,
      );
      assert.match(String(v("remaining_hms")), /^00:[0-5]\d$/);
      // And back: +60 s leaves the zone.
      assert.equal((await press("adjust", { seconds: 60 })).success, true);
      await host.until(
        "back to normal",
        () => fb("warning") === false && v("zone") === "normal",
      );
      const api3 = (await read()).remaining_seconds;
      assert.ok(
        api3 > 60 && Math.abs(Number(v("remaining_seconds")) - api3) <= 1,
        `${v("remaining_seconds")} vs ${api3}`,
      );

      // Messages and blackout through the message endpoint.
      assert.equal(
        (await press("message_show", {
          text: "Wrap up",
          color: "yellow",
          flash: 2,
        })).success,
        true,
      );
      await host.until("message shown", () => fb("message_shown") === true);
      assert.deepEqual((await read()).message.text, "Wrap up");
      assert.equal((await press("blackout", { mode: "on" })).success, true);
      await host.until("blackout", () => fb("blackout") === true);
      assert.deepEqual([(await read()).message.text, fb("message_shown")], [
        "Wrap up",
        true,
      ]);
      assert.equal((await press("message_hide")).success, true);
      await host.until(
        "message hidden, still black",
        () => fb("message_shown") === false,
      );
      assert.equal(fb("blackout"), true);
      assert.equal((await press("blackout", { mode: "off" })).success, true);
      await host.until("blackout off", () => fb("blackout") === false);
      assert.equal((await read()).message, null);

      // Pause: the clock holds where the API says.
      assert.equal((await press("pause")).success, true);
      await host.until(
        "paused",
        () => fb("paused") === true && fb("running") === false,
      );
      const paused = await read();
      assert.equal(paused.state, "paused");
      assert.equal(v("remaining_seconds"), paused.remaining_seconds);
      // A refused action comes back to Companion with the service's reason.
      const refused = await press("pause");
      assert.equal(refused.success, false);
      assert.match(refused.errorMessage!, /409/);
      assert.equal((await press("resume")).success, true);
      await host.until("running again", () => fb("running") === true);
      assert.equal((await press("reset")).success, true);
      await host.until(
        "reset to 02:00",
        () => v("remaining_hms") === "02:00" && fb("running") === false,
      );

      // The timer deleted: the stream says gone, the module shows it.
      const before = host.statuses.length;
      assert.equal((await api("DELETE", `/timers/${id}`, service.apiKey)).status, 200);
      await host.until(
        "disconnected",
        () => fb("connected") === false && status() === "bad_config",
      );
      // Gone for good: no reconnection attempts, so no connection failure shown after it.
      assert.deepEqual(host.statuses.slice(before).map((s) => s.status), ["bad_config"]);
      assert.match(host.statuses.at(-1)!.message!, /deleted or has expired/);
    } finally {
      if (instance) await host.call("destroy", {}).catch(() => {});
      host.close();
      await service.stop();
    }
  },
});
