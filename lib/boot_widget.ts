/**
 * The widget page's single script: the Widget island and the hydration of its root in one
 * bundle (no boot module, no shared chunks), so an embed loads one small file. Built beside the
 * split bundles by scripts/build.ts (`solo` in the manifest); lib/islands.tsx serves it to a
 * page whose only island is Widget. Hydrates as lib/boot.ts does.
 */
import { h, hydrate } from "preact";
import Widget from "../islands/Widget.tsx";

for (const root of document.querySelectorAll<HTMLElement>('[data-island="Widget"]')) {
  hydrate(h(Widget, JSON.parse(root.dataset.props ?? "{}")), root);
}
