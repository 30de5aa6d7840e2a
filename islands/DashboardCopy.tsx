/**
 * A read-only value (a new key, a secret, an embed snippet) with a Copy button. Without
 * JavaScript the value is still there to select; the button appears once the island runs.
 */
import { useEffect, useRef, useState } from "preact/hooks";

export interface DashboardCopyProps {
  id: string;
  label: string;
  value: string;
  /** Several lines (a snippet) or one (a key). */
  multiline?: boolean;
  copy: string;
  copied: string;
  failed: string;
}

export default function DashboardCopy(p: DashboardCopyProps) {
  const [ready, setReady] = useState(false);
  const [status, setStatus] = useState("");
  const field = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  useEffect(() => setReady(true), []);

  async function copy() {
    try {
      await navigator.clipboard.writeText(p.value);
      setStatus(p.copied);
    } catch {
      field.current?.select();
      setStatus(p.failed);
    }
  }

  return (
    <div class="copy">
      <label for={p.id}>{p.label}</label>
      <div class="copy-row">
        {p.multiline
          ? <textarea id={p.id} ref={field} readOnly rows={3} class="copy-value" spellcheck={false} value={p.value} />
          : (
            <input
              id={p.id}
              ref={field}
              readOnly
              class="copy-value"
              spellcheck={false}
              value={p.value}
              onFocus={(e) => (e.target as HTMLInputElement).select()}
            />
          )}
        {ready && (
          <button type="button" class="button button--small" onClick={copy} aria-describedby={`${p.id}-status`}>
            {p.copy}
          </button>
        )}
      </div>
      <p id={`${p.id}-status`} class="copy-status" role="status">{status}</p>
    </div>
  );
}
