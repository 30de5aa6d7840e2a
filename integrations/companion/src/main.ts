/** The module's entry point (companion/manifest.json runtime.entrypoint): Companion runs this file. */
import { runEntrypoint } from "@companion-module/base";
import { TimerInstance } from "./instance.ts";

runEntrypoint(TimerInstance, []);
