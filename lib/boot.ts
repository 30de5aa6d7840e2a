/**
 * The browser entry of the islands: hydrates every `[data-island]` root the server rendered
 * (see lib/islands.tsx). Each island's bundle sits beside this one in static/build/islands/
 * and is loaded with the same `?v=` version, so one deploy never mixes two builds.
 */
import { h, hydrate } from "preact";

const here = new URL(import.meta.url);

for (const root of document.querySelectorAll<HTMLElement>("[data-island]")) {
  const name = root.dataset.island!;
  const props = JSON.parse(root.dataset.props ?? "{}");
  const url = new URL(`../islands/${name}.js${here.search}`, here).href;
  import(url).then(
    (mod) => hydrate(h(mod.default, props), root),
    // deno-lint-ignore no-console
    (err) => console.error(`island ${name} failed to load`, err),
  );
}
