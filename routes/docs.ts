/** /docs: a readable API reference rendered on the server from the OpenAPI document, no CDN. */

// deno-lint-ignore no-explicit-any
type Json = any;

const esc = (s: unknown) =>
  String(s ?? "").replace(
    /[&<>"']/g,
    (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!,
  );

function typeOf(schema: Json, doc: Json): string {
  if (!schema) return "";
  if (schema.$ref) return schema.$ref.split("/").pop();
  if (schema.enum) return schema.enum.map((v: unknown) => JSON.stringify(v)).join(" | ");
  if (schema.anyOf) return schema.anyOf.map((s: Json) => typeOf(s, doc)).join(" | ");
  if (schema.type === "array") return `${typeOf(schema.items, doc)}[]`;
  const t = Array.isArray(schema.type) ? schema.type.join(" | ") : schema.type ?? "object";
  const range = schema.minimum !== undefined ? ` ${schema.minimum}…${schema.maximum ?? ""}` : "";
  return `${t}${range}`;
}

function fields(schema: Json, doc: Json): string {
  const s = schema?.$ref ? doc.components.schemas[schema.$ref.split("/").pop()] : schema;
  if (!s?.properties) return "";
  const required = new Set(s.required ?? []);
  const rows = Object.entries(s.properties).map(([name, p]: [string, Json]) =>
    `<tr><td><code>${esc(name)}</code>${required.has(name) ? " <em>required</em>" : ""}</td><td>${
      esc(typeOf(p, doc))
    }</td><td>${esc(p.description ?? "")}</td></tr>`
  );
  return `<table><tr><th>field</th><th>type</th><th>notes</th></tr>${rows.join("")}</table>`;
}

/** Renders the reference page. */
export function docsPage(doc: Json): string {
  const ops: string[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {}) as [string, Json][]) {
    for (const [method, op] of Object.entries(item) as [string, Json][]) {
      const params = (op.parameters ?? []).map((p: Json) =>
        `<li><code>${esc(p.name)}</code> (${esc(p.in)}) ${esc(typeOf(p.schema, doc))} ${
          esc(p.schema?.description ?? "")
        }</li>`
      ).join("");
      const body = op.requestBody?.content?.["application/json"]?.schema;
      const responses = Object.entries(op.responses ?? {}).map(([code, r]: [string, Json]) =>
        `<li><code>${esc(code)}</code> ${esc(r.description)}</li>`
      ).join("");
      ops.push(`<section id="${esc(op.operationId ?? `${method}-${path}`)}">
<h2><span class="m">${esc(method.toUpperCase())}</span> <code>/api/v1${esc(path)}</code></h2>
<p>${esc(op.summary ?? "")}</p>
${params ? `<h3>Parameters</h3><ul>${params}</ul>` : ""}
${body ? `<h3>Body</h3>${fields(body, doc)}` : ""}
<h3>Responses</h3><ul>${responses}</ul></section>`);
    }
  }
  const schemas = Object.entries(doc.components?.schemas ?? {}).map(([name, s]) =>
    `<section><h3 id="schema-${esc(name)}">${esc(name)}</h3>${fields(s, doc)}</section>`
  ).join("");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(doc.info?.title)} reference</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1d1d28}
h2{border-top:1px solid #ddd;padding-top:1rem}.m{background:#3b3486;color:#fff;padding:0 .4rem;border-radius:4px}
table{border-collapse:collapse;width:100%}td,th{border:1px solid #ddd;padding:.25rem .5rem;text-align:left;vertical-align:top}
code{background:#f3f3f7;padding:0 .2rem}
</style></head><body>
<h1>${esc(doc.info?.title)}</h1><p>${esc(doc.info?.description)}</p>
<p>Machine-readable: <a href="/api/v1/openapi.json">/api/v1/openapi.json</a> (OpenAPI 3.1).
Authenticate with <code>Authorization: Bearer &lt;API_KEY&gt;</code>.</p>
${ops.join("\n")}
<h2>Schemas</h2>${schemas}
</body></html>`;
}

/** Registers /docs. */
// deno-lint-ignore no-explicit-any
export function docsRoutes(app: any, doc: () => Json) {
  app.get("/docs", (c: Json) => c.html(docsPage(doc())));
}
