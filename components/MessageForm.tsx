/** The control page's message box: text, colour, flashes and blackout, shown on the speaker's screen. */
import { useState } from "preact/hooks";
import type { FaceMessage } from "../lib/face.ts";
import type { ShowTexts } from "../lib/i18n_show.ts";

export type MessageInput = Pick<FaceMessage, "color" | "flash" | "blackout"> & { text?: string };

const COLORS = ["white", "green", "yellow", "red"] as const;

export function MessageForm(p: {
  st: ShowTexts;
  enabled: boolean;
  held: boolean;
  current: FaceMessage | null;
  onSend: (m: MessageInput | null) => void;
}) {
  const { st } = p;
  const [text, setText] = useState(p.current?.text ?? "");
  const [color, setColor] = useState<FaceMessage["color"]>(p.current?.color ?? "white");
  const [flash, setFlash] = useState(p.current?.flash ?? 0);
  const [blackout, setBlackout] = useState(p.current?.blackout ?? false);
  const send = (m: MessageInput) => p.onSend(m.text?.trim() || m.blackout ? m : null);
  return (
    <form
      class="control-message"
      onSubmit={(e) => {
        e.preventDefault();
        send({ text: text.trim() || undefined, color, flash, blackout });
      }}
    >
      <label class="control-message-text">
        {st.message_text}
        <input
          name="text"
          type="text"
          maxLength={200}
          value={text}
          autocomplete="off"
          placeholder={st.message_heading}
          onInput={(e) => setText((e.target as HTMLInputElement).value)}
        />
      </label>
      <label>
        {st.message_color}
        <select name="color" value={color} onChange={(e) => setColor((e.target as HTMLSelectElement).value as never)}>
          {COLORS.map((c) => <option key={c} value={c}>{st[`color_${c}`]}</option>)}
        </select>
      </label>
      <label>
        {st.message_flash}
        <input
          name="flash"
          type="number"
          min={0}
          max={10}
          value={flash}
          onInput={(e) =>
            setFlash(Math.min(10, Math.max(0, Math.round(Number((e.target as HTMLInputElement).value)))) || 0)}
        />
      </label>
      <label class="control-check">
        <input
          name="blackout"
          type="checkbox"
          checked={blackout}
          onChange={(e) => {
            const on = (e.target as HTMLInputElement).checked;
            setBlackout(on);
            // A blackout takes effect at once, like a switch.
            send({ text: text.trim() || undefined, color, flash: 0, blackout: on });
          }}
          disabled={!p.enabled}
        />
        {st.message_blackout}
      </label>
      <div class="control-message-actions">
        <button
          type="button"
          class="control-button"
          data-message="clear"
          disabled={!p.enabled || !p.current}
          aria-disabled={p.held ? "true" : undefined}
          onClick={() => {
            setText("");
            setBlackout(false);
            p.onSend(null);
          }}
        >
          {st.message_clear}
        </button>
        <button
          type="submit"
          class="control-button"
          data-message="send"
          disabled={!p.enabled}
          aria-disabled={p.held ? "true" : undefined}
        >
          {st.message_send}
        </button>
      </div>
    </form>
  );
}
