#!/usr/bin/env node
// deno-lint-ignore-file no-console -- a Node launcher that speaks to the terminal
// Runs the pinned Deno: a `deno` on PATH of the pinned version, else the one from the npm
// package `deno` (installed here on first use). Usage: node scripts/deno.mjs <deno args…>
// Its own messages go to stderr, so that a command's output can be piped.
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
// Pinned in package.json's "config" (not a dependency: Deno would then resolve it as one).
const pinned = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).config.deno;
const local = join(root, "node_modules", ".bin", process.platform === "win32" ? "deno.cmd" : "deno");

function versionOf(bin) {
  try {
    const out = execFileSync(bin, ["--version"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
    return /deno (\d+\.\d+\.\d+)/.exec(out)?.[1] ?? null;
  } catch {
    return null;
  }
}

let bin = null;
if (versionOf(local) === pinned) bin = local;
else if (versionOf("deno") === pinned) bin = "deno";
else {
  console.error(`Installing Deno ${pinned} from the npm package "deno"…`);
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const res = spawnSync(
    npm,
    ["install", "--no-save", "--no-package-lock", "--no-audit", "--no-fund", `deno@${pinned}`],
    // npm's own output goes to stderr: stdout belongs to the command (`… --json | jq`).
    { cwd: root, stdio: ["ignore", 2, 2] },
  );
  if (res.status !== 0 || versionOf(local) !== pinned) {
    console.error(`Could not install Deno ${pinned}; install it by hand and retry.`);
    process.exit(1);
  }
  bin = local;
}
const run = spawnSync(bin, process.argv.slice(2), { cwd: process.cwd(), stdio: "inherit" });
process.exit(run.status ?? 1);
