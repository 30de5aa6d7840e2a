/**
 * The widget configured by its parameters (no live timer), without the time of day, the
 * full-screen button or an event's date: what most embeds show, in the fewest bytes.
 * components/widget_face.tsx `widgetIsland` picks it only where it shows what islands/Widget.tsx would.
 */
import { obeyParent } from "../components/host_commands.ts";
import { RestartButton } from "../components/RestartButton.tsx";
import { widgetWith } from "../components/widget_face.tsx";

export type { WidgetProps } from "../components/widget_face.tsx";

export default widgetWith({ obey: obeyParent, Restart: RestartButton });
