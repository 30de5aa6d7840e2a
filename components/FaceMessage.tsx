/**
 * The speaker's message on a face, and the operator's note of a blackout: a part of the faces
 * that show messages (the viewer, the control page, `messages=1`, the stage), passed to
 * TimerFace as `Message`; the plain widget loads none of it.
 */
import type { FaceMessage } from "../lib/face.ts";
import type { FaceTexts } from "../lib/i18n.ts";

export function FaceMessageLine(p: { msg: FaceMessage; preview?: boolean; t: FaceTexts }) {
  const { msg, t } = p;
  return (
    <>
      {msg.text && (
        // Announced once as it appears (role=alert); set again, it is a new element and flashes again.
        <p
          key={msg.set_at}
          class="face-message"
          role="alert"
          dir="auto"
          data-color={msg.color}
          data-flash={msg.flash > 0 ? "" : undefined}
          style={msg.flash > 0 ? { "--flashes": msg.flash } : undefined}
        >
          {msg.text}
        </p>
      )}
      {msg.blackout === true && p.preview && <p class="face-blackout-note" role="status">{t.blackout_on}</p>}
    </>
  );
}
