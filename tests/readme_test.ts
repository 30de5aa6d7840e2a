/** The README stays a newcomer's page: short, its links and test vector right, every setting named, no spec jargon. */
import assert from "node:assert/strict";
import { verifyWebhook } from "../mod.ts";
import { VECTOR } from "./webhook_vector.ts";

const ROOT = new URL("../", import.meta.url);
const readme = await Deno.readTextFile(new URL("README.md", ROOT));

Deno.test("the README is at most 2 500 words", () => {
  const words = readme.split(/\s+/).filter(Boolean).length;
  assert.ok(words <= 2500, `${words} words`);
});

Deno.test("the README's test vector verifies, and is the one the tests pin", async () => {
  const body = /```text\n(\{.*\})\n```/.exec(readme)![1];
  const headers = Object.fromEntries(
    /```\n(X-Service-Signature: .*?)\n```/s.exec(readme)![1].split("\n").map((l) => l.split(": ")),
  );
  assert.ok(readme.includes(VECTOR.secret));
  assert.deepEqual(
    headers,
    Object.fromEntries(
      Object.entries(VECTOR.headers).map(([k, v]) => [k === "x-service-signature" ? "X-Service-Signature" : k, v]),
    ),
  );
  const event = await verifyWebhook(body, headers, [VECTOR.secret], { now: VECTOR.nowMs });
  assert.equal(event?.id, VECTOR.payload.id);
});

Deno.test("the README names every setting config.ts reads", async () => {
  const config = await Deno.readTextFile(new URL("config.ts", ROOT));
  const names = new Set([...config.matchAll(/\b(?:raw|int|flag|oneOf|bad)\("([A-Z_]+)"/g)].map((m) => m[1]));
  assert.ok(names.size >= 20, [...names].join());
  for (const name of names) assert.match(readme, new RegExp(`\\| \`${name}\``), name);
});

Deno.test("the README's links to files lead to files; no spec jargon where users read", async () => {
  for (const [, target] of readme.matchAll(/\]\(((?!https?:|#)[^)#]+)(#[^)]*)?\)/g)) {
    const stat = await Deno.stat(new URL(target, ROOT)).catch(() => null);
    assert.ok(stat, `README links ${target}`);
  }
  const read = [
    readme,
    await Deno.readTextFile(new URL("SECURITY.md", ROOT)),
    await Deno.readTextFile(new URL("sdk/README.md", ROOT)),
  ];
  for await (const e of Deno.readDir(new URL("docs/guides/", ROOT))) {
    read.push(await Deno.readTextFile(new URL(`docs/guides/${e.name}`, ROOT)));
  }
  for (const text of read) assert.doesNotMatch(text, /variant [AB]\b/i);
  assert.match(
    await Deno.readTextFile(new URL("sdk/README.md", ROOT)),
    /^# [^\n]+\n+## Install\n/,
    "the SDK's README starts with installing it",
  );
});
