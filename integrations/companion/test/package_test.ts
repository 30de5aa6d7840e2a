/**
 * The packaged module (`npm run package` = tsc + companion-module-build) as Companion runs it: a
 * forked Node process with the manifest and the IPC channel (ipc_host.mjs plays Companion),
 * driving the real service. It needs the module's npm dependencies (`npm ci` in
 * integrations/companion, which needs the npm registry): without them it is skipped, with them it
 * must pass.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { run, startService } from "./service.ts";

const MODULE = new URL("../", import.meta.url).pathname;
const installed = existsSync(`${MODULE}node_modules/.bin/companion-module-build`);

Deno.test({
  name: "the packaged Companion module builds, and in Node drives a real timer over Companion's IPC",
  ignore: !installed,
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    await run("npm", ["run", "package"], { cwd: MODULE });
    const manifest = JSON.parse(await Deno.readTextFile(`${MODULE}pkg/companion/manifest.json`));
    const pkg = JSON.parse(await Deno.readTextFile(`${MODULE}package.json`));
    assert.deepEqual(
      [manifest.id, manifest.runtime.entrypoint, manifest.runtime.apiVersion],
      ["timer-service", "../main.js", pkg.dependencies["@companion-module/base"]],
    );
    assert.ok(existsSync(`${MODULE}timer-service-${pkg.version}.tgz`), "the module package (tgz) is written");
    const service = await startService();
    try {
      const created = await service.api("POST", "/timers", service.apiKey, { type: "countdown", duration: 90 });
      const out = JSON.parse(
        await run("node", [`${MODULE}test/ipc_host.mjs`, `${MODULE}pkg`, created.body.control_url], { cwd: MODULE }),
      );
      assert.equal(out.running, true);
      assert.equal(out.variables.zone, "normal");
      assert.match(out.variables.remaining_hms, /^01:2\d$/);
      assert.ok(out.statuses.includes("ok"), out.statuses.join(" "));
      assert.equal(
        (await service.api("GET", `/timers/${created.body.timer_id}`, service.apiKey)).body.state,
        "running",
      );
    } finally {
      await service.stop();
    }
  },
});
