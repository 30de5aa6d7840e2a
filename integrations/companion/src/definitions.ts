/**
 * What the module offers Companion: config fields, actions, boolean feedbacks and variables, as
 * plain objects in the shapes of @companion-module/base 1.x (checked there by the module's tsc
 * build, in instance.ts). Callbacks go to the Connection the getter returns at the time.
 */
import type { Connection } from "./connection.ts";
import type { Feedbacks } from "./state.ts";

/** Config fields (Companion stores `control_link`, a secret-text field, in its secrets store). */
export interface ModuleConfig {
  site_url: string;
}
export interface ModuleSecrets {
  control_link: string;
}

export function configFields() {
  return [
    {
      type: "static-text" as const,
      id: "info",
      label: "Timer",
      width: 12,
      value: "Paste the timer's control link (from the dashboard or the API: control_url). " +
        "The site URL may stay blank: the link's own site is used.",
    },
    {
      type: "secret-text" as const,
      id: "control_link",
      label: "Control link ({site}/c/<timer_id>#<control_token>)",
      width: 12,
      default: "",
    },
    {
      type: "textinput" as const,
      id: "site_url",
      label: "Site URL (optional; overrides the link's site)",
      width: 8,
      default: "",
    },
  ];
}

type Options = Record<string, unknown>;

const colors = [
  { id: "white", label: "White" },
  { id: "green", label: "Green" },
  { id: "yellow", label: "Yellow" },
  { id: "red", label: "Red" },
];

/** The action definitions; `get()` is the connection in force (null while unconfigured). */
export function actionDefinitions(get: () => Connection | null) {
  const need = () => {
    const c = get();
    if (!c) {
      throw new Error(
        "the module is not configured: paste the timer's control link in its settings",
      );
    }
    return c;
  };
  const simple = (
    action: "start" | "pause" | "resume" | "reset" | "stop",
    name: string,
  ) => ({
    name,
    options: [],
    callback: async () => {
      await need().action(action);
    },
  });
  return {
    start: simple("start", "Start"),
    pause: simple("pause", "Pause"),
    resume: simple("resume", "Resume"),
    reset: simple("reset", "Reset"),
    stop: simple("stop", "Stop"),
    toggle: {
      name: "Start / pause / resume",
      description: "Starts an idle timer, pauses a running one, resumes a paused one",
      options: [],
      callback: async () => {
        const c = need();
        const state = c.face()?.state;
        await c.action(
          state === "running" ? "pause" : state === "paused" ? "resume" : "start",
        );
      },
    },
    adjust: {
      name: "Adjust time (± seconds)",
      description: "Adds (positive) or takes away (negative) time from a running or paused timer",
      options: [{
        type: "number" as const,
        id: "seconds",
        label: "Seconds (−86400…86400, not 0)",
        default: 60,
        min: -86400,
        max: 86400,
      }],
      callback: async (event: { options: Options }) => {
        await need().action(
          "adjust",
          Math.trunc(Number(event.options.seconds)),
        );
      },
    },
    message_show: {
      name: "Show message",
      options: [
        {
          type: "textinput" as const,
          id: "text",
          label: "Text (up to 200 characters)",
          default: "Wrap up, please",
        },
        {
          type: "dropdown" as const,
          id: "color",
          label: "Colour",
          default: "white",
          choices: colors,
        },
        {
          type: "number" as const,
          id: "flash",
          label: "Flashes (0…10)",
          default: 0,
          min: 0,
          max: 10,
        },
      ],
      callback: async (event: { options: Options }) => {
        await need().showMessage({
          text: String(event.options.text ?? ""),
          color: String(event.options.color ?? "white") as "white",
          flash: Math.trunc(Number(event.options.flash ?? 0)),
        });
      },
    },
    message_hide: {
      name: "Hide message",
      options: [],
      callback: async () => {
        await need().hideMessage();
      },
    },
    blackout: {
      name: "Blackout",
      description: "Turns the speaker's screen black (the timer counts on underneath)",
      options: [{
        type: "dropdown" as const,
        id: "mode",
        label: "Blackout",
        default: "on",
        choices: [{ id: "on", label: "On" }, { id: "off", label: "Off" }, {
          id: "toggle",
          label: "Toggle",
        }],
      }],
      callback: async (event: { options: Options }) => {
        const mode = event.options.mode;
        await need().blackout(mode === "toggle" ? "toggle" : mode !== "off");
      },
    },
  };
}

const FEEDBACKS: Record<
  keyof Feedbacks,
  { name: string; bgcolor: number; color: number }
> = {
  running: { name: "Running", bgcolor: 0x00a000, color: 0xffffff },
  paused: { name: "Paused", bgcolor: 0x0060c0, color: 0xffffff },
  warning: { name: "Warning zone", bgcolor: 0xe0c000, color: 0x000000 },
  danger: { name: "Danger zone", bgcolor: 0xd00000, color: 0xffffff },
  overtime: {
    name: "Overtime (counting on past zero)",
    bgcolor: 0x800000,
    color: 0xffffff,
  },
  message_shown: { name: "Message shown", bgcolor: 0x8000c0, color: 0xffffff },
  blackout: { name: "Blackout on", bgcolor: 0x000000, color: 0xff4040 },
  connected: {
    name: "Connected to the live stream",
    bgcolor: 0x004000,
    color: 0xffffff,
  },
};

/** Boolean feedbacks, one per state; each reads the connection's current value. */
export function feedbackDefinitions(get: () => Connection | null) {
  return Object.fromEntries(
    Object.entries(FEEDBACKS).map(([id, f]) => [id, {
      type: "boolean" as const,
      name: f.name,
      defaultStyle: { bgcolor: f.bgcolor, color: f.color },
      options: [],
      callback: () => get()?.feedback(id as keyof Feedbacks) ?? false,
    }]),
  );
}

export const VARIABLE_DEFINITIONS = [
  {
    variableId: "remaining_hms",
    name: "Time left as the clock shows it (05:07, 1:05:07; an interval's phase)",
  },
  {
    variableId: "remaining_seconds",
    name: "Time left in whole seconds (rounded up)",
  },
  { variableId: "zone", name: "Zone: normal, warning, danger or overtime" },
  {
    variableId: "overtime_hms",
    name: "Time past zero in overtime (00:00 otherwise)",
  },
  { variableId: "title", name: "Timer title" },
  { variableId: "round", name: "Interval round (blank for other timers)" },
];

/** Ready-made buttons; `label` is the connection's label, the prefix of its variables. */
export function presetDefinitions(label: string) {
  const zone = (f: "warning" | "danger" | "overtime") => ({
    feedbackId: f,
    options: {},
    style: { bgcolor: FEEDBACKS[f].bgcolor, color: FEEDBACKS[f].color },
  });
  const button = (
    name: string,
    text: string,
    down: { actionId: string; options: Record<string, string | number> }[],
    feedbacks: { feedbackId: string; options: Record<string, never>; style: { bgcolor: number; color: number } }[] = [],
  ) => ({
    type: "button" as const,
    category: "Timer",
    name,
    style: { text, size: "auto" as const, color: 0xffffff, bgcolor: 0x000000 },
    feedbacks,
    steps: [{ down, up: [] }],
  });
  return {
    clock: button(
      "Time left (press: start / pause / resume)",
      `$(${label}:remaining_hms)`,
      [{ actionId: "toggle", options: {} }],
      [zone("warning"), zone("danger"), zone("overtime")],
    ),
    plus_minute: button("+1 min", "+1 min", [{ actionId: "adjust", options: { seconds: 60 } }]),
    minus_minute: button("−1 min", "−1 min", [{ actionId: "adjust", options: { seconds: -60 } }]),
    reset: button("Reset", "Reset", [{ actionId: "reset", options: {} }]),
    wrap_up: button(
      "Message: wrap up",
      "Wrap up",
      [{ actionId: "message_show", options: { text: "Wrap up, please", color: "yellow", flash: 3 } }],
      [{
        feedbackId: "message_shown",
        options: {},
        style: { bgcolor: FEEDBACKS.message_shown.bgcolor, color: 0xffffff },
      }],
    ),
    hide_message: button("Hide message", "Hide msg", [{ actionId: "message_hide", options: {} }]),
    blackout: button(
      "Blackout toggle",
      "Blackout",
      [{ actionId: "blackout", options: { mode: "toggle" } }],
      [{ feedbackId: "blackout", options: {}, style: { bgcolor: 0x000000, color: 0xff4040 } }],
    ),
  };
}
