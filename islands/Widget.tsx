/** The timer display of /widget and /v/:id with every part (components/widget_face.tsx). */
import { DayClock } from "../components/DayClock.tsx";
import { FaceMessageLine } from "../components/FaceMessage.tsx";
import { obeyParent } from "../components/host_commands.ts";
import { followLive } from "../components/live_stream.ts";
import { RestartButton } from "../components/RestartButton.tsx";
import { FullscreenButton } from "../components/ScreenParts.tsx";
import { Timeline } from "../components/timeline.ts";
import { useViewerDate } from "../components/viewer_date.ts";
import { widgetWith } from "../components/widget_face.tsx";

export type { WidgetProps } from "../components/widget_face.tsx";

export default widgetWith({
  follow: followLive,
  clock: (p, serverNow, delayMs) => (
    <DayClock
      at={p.source.at}
      serverNow={serverNow}
      delayMs={delayMs}
      zone={p.view?.clockZone ?? null}
      lang={p.lang}
      label={p.st?.time_of_day ?? "Time of day"}
    />
  ),
  fullscreen: (p) =>
    p.variant === "page" && p.st && <FullscreenButton enter={p.st.fullscreen} exit={p.st.exit_fullscreen} />,
  Restart: RestartButton,
  viewerDate: useViewerDate,
  obey: obeyParent,
  delayed: Timeline,
  Message: FaceMessageLine,
});
