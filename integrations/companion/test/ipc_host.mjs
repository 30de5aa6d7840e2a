/**
 * Plays Companion for the packaged module in Node (as Companion runs it: a forked process,
 * MODULE_MANIFEST and the IPC channel): registers it, initialises it with a control link, presses
 * Start, and prints the variables and the `running` feedback once the time left has gone down.
 * Usage: node ipc_host.mjs <pkg dir> <control link>
 */
import { fork } from "node:child_process";
import process from "node:process";

const [dir, link] = process.argv.slice(2);
const child = fork(`${dir}/main.js`, [], {
  env: {
    ...process.env,
    MODULE_MANIFEST: `${dir}/companion/manifest.json`,
    CONNECTION_ID: "ipc",
    VERIFICATION_TOKEN: "v",
  },
  stdio: ["ignore", "ignore", "inherit", "ipc"],
});
const fail = (why) => {
  process.stderr.write(`${why}\n`);
  child.kill();
  process.exit(1);
};
setTimeout(() => fail("timed out"), 20_000);
let next = 1;
const pending = new Map();
const call = (name, payload) =>
  new Promise((resolve, reject) => {
    const id = next++;
    pending.set(id, { resolve, reject });
    child.send({ direction: "call", name, payload: JSON.stringify(payload), callbackId: id });
  });
const variables = {};
const feedbacks = {};
const statuses = [];
let started = false;
const check = () => {
  if (started && feedbacks.f_running === true && variables.remaining_seconds <= 88) {
    process.stdout.write(JSON.stringify({ variables, running: feedbacks.f_running, statuses }) + "\n");
    child.kill();
    process.exit(0);
  }
};
child.on("message", async (msg) => {
  if (msg.direction === "response") {
    const p = pending.get(msg.callbackId);
    pending.delete(msg.callbackId);
    if (msg.success) p?.resolve(JSON.parse(msg.payload ?? "null"));
    else p?.reject(new Error(msg.payload));
    return;
  }
  const payload = msg.payload ? JSON.parse(msg.payload) : undefined;
  if (msg.name === "register") {
    child.send({ direction: "response", callbackId: msg.callbackId, success: true, payload: "{}" });
    try {
      await call("init", {
        label: "timer",
        isFirstInit: false,
        config: { site_url: "" },
        secrets: { control_link: link },
        lastUpgradeIndex: -1,
        feedbacks: {},
        actions: {},
      });
      await call("updateFeedbacks", {
        feedbacks: {
          f_running: {
            id: "f_running",
            controlId: "c",
            feedbackId: "running",
            options: {},
            isInverted: false,
            disabled: false,
            upgradeIndex: null,
          },
        },
      });
      const answer = await call("executeAction", {
        action: { id: "a", controlId: "c", actionId: "start", options: {}, disabled: false, upgradeIndex: null },
        surfaceId: undefined,
      });
      if (!answer?.success) fail(`start failed: ${JSON.stringify(answer)}`);
      started = true;
    } catch (e) {
      fail(String(e));
    }
  } else if (msg.name === "setVariableValues") {
    for (const v of payload.newValues) variables[v.id] = v.value;
  } else if (msg.name === "updateFeedbackValues") {
    for (const v of payload.values) feedbacks[v.id] = v.value;
  } else if (msg.name === "set-status") {
    statuses.push(payload.status);
  } else if (msg.callbackId) {
    child.send({ direction: "response", callbackId: msg.callbackId, success: true, payload: "null" });
  }
  check();
});
