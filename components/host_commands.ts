/**
 * The host API's commands (start, pause, resume, reset) for a widget configured by its
 * parameters: a part of the islands that obey them (components/widget_face.tsx `obey`); the
 * widget of a stored timer, which ignores them, loads none of it.
 */
import type { Source } from "../lib/face.ts";
import { applyCommand, commandOf } from "./host_messages.ts";

/** Listens for the parent's commands, applying each; returns the function that stops. */
export type Obey = (apply: (change: (src: Source, now: number) => Source | null) => boolean) => () => void;

export const obeyParent: Obey = (apply) => {
  const listen = (e: MessageEvent) => {
    if (e.source !== parent) return;
    const command = commandOf(e.data);
    if (command) apply((src, now) => applyCommand(src, command, now));
  };
  addEventListener("message", listen);
  return () => removeEventListener("message", listen);
};
