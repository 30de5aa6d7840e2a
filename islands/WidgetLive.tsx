/**
 * The widget of a stored timer (`/widget?id=`), following it live, without the time of day,
 * the full-screen button or an event's date. components/widget_face.tsx `widgetIsland` picks it
 * only where it shows what islands/Widget.tsx would.
 */
import { followLive } from "../components/live_stream.ts";
import { widgetWith } from "../components/widget_face.tsx";

export type { WidgetProps } from "../components/widget_face.tsx";

export default widgetWith({ follow: followLive });
