/**
 * The stage's single script (/stage/:id and the rundown embed `/widget?rundown=`): the Stage
 * island and the hydration of its root in one bundle, as lib/boot_widget.ts does for the widget.
 */
import { h, hydrate } from "preact";
import Stage from "../islands/Stage.tsx";

for (const root of document.querySelectorAll<HTMLElement>('[data-island="Stage"]')) {
  hydrate(h(Stage, JSON.parse(root.dataset.props ?? "{}")), root);
}
