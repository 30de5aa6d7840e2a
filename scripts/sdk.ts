/**
 * SDK tasks: `types` writes src/schema.ts from the service's OpenAPI document (openapi-typescript);
 * `build` compiles src/ to dist/ (ESM JavaScript and .d.ts) so Node imports it without a loader.
 * `deno task sdk:types`, `deno task sdk:build`; tests/sdk_test.ts fails when either is stale.
 */
import openapiTS, { astToString } from "openapi-typescript";
import ts from "typescript";
import { createApp } from "../app.ts";
import { testConfig } from "../config.ts";
import { Store } from "../lib/kv/store.ts";

const SDK = new URL("../sdk/", import.meta.url);
const SOURCES = ["index.ts", "client.ts", "webhooks.ts", "schema.ts"];

/** The service's OpenAPI document, from the real app on an in-memory KV. */
export async function openApiDocument(): Promise<Record<string, unknown>> {
  const kv = await Deno.openKv(":memory:");
  try {
    const app = createApp({
      store: new Store(kv, { useQueue: false }),
      config: testConfig({ siteUrl: "https://timers.example.com" }),
    });
    const res = await app.app.request("https://timers.example.com/api/v1/openapi.json");
    await app.limiter.stop();
    await app.scheduler.stop();
    return await res.json();
  } finally {
    kv.close();
  }
}

/** The text of src/schema.ts for the current document. */
export async function schemaSource(): Promise<string> {
  const ast = await openapiTS(await openApiDocument() as never, { alphabetize: true });
  const text = `// Generated from the service's OpenAPI document by \`deno task sdk:types\`; do not edit.\n\n${
    astToString(ast)
  }`;
  // Formatted as the repository formats it, so the committed file and a fresh one compare equal.
  const fmt = new Deno.Command(Deno.execPath(), {
    args: ["fmt", "--ext=ts", "-"],
    cwd: new URL("../", import.meta.url),
    stdin: "piped",
    stdout: "piped",
  }).spawn();
  const writer = fmt.stdin.getWriter();
  await writer.write(new TextEncoder().encode(text));
  await writer.close();
  const { success, stdout } = await fmt.output();
  if (!success) throw new Error("deno fmt failed on the generated types");
  return new TextDecoder().decode(stdout);
}

/** dist/ file name → contents, compiled from src/. */
export async function compile(): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    declaration: true,
    isolatedDeclarations: true,
    verbatimModuleSyntax: true,
    removeComments: false,
  };
  const toJs = (text: string) => text.replace(/(from\s+|import\()(["'])(\.\.?\/[^"']+)\.ts\2/g, "$1$2$3.js$2");
  for (const name of SOURCES) {
    const source = await Deno.readTextFile(new URL(`src/${name}`, SDK));
    const js = ts.transpileModule(source, { compilerOptions: options, fileName: name }).outputText;
    const dts = ts.transpileDeclaration(source, { compilerOptions: options, fileName: name });
    if (dts.diagnostics?.length) {
      throw new Error(`${name}: ${dts.diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"))}`);
    }
    const base = name.replace(/\.ts$/, "");
    out.set(`${base}.js`, toJs(js));
    out.set(`${base}.d.ts`, toJs(dts.outputText));
  }
  return out;
}

if (import.meta.main) {
  const task = Deno.args[0];
  if (task === "types") {
    await Deno.writeTextFile(new URL("src/schema.ts", SDK), await schemaSource());
  } else if (task === "build") {
    await Deno.mkdir(new URL("dist/", SDK), { recursive: true });
    for (const [name, text] of await compile()) await Deno.writeTextFile(new URL(`dist/${name}`, SDK), text);
  } else {
    throw new Error("usage: deno run -A scripts/sdk.ts types|build");
  }
}
