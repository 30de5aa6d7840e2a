import assert from "node:assert/strict";
import { parseViewParams } from "../routes/pages/params.ts";
import { viewAttrs, withView } from "./view_params.ts";

Deno.test("withView adds only what differs from a plain face, and parses back to the same view", () => {
  const base = "https://t.example/widget?duration=60";
  assert.equal(withView(base, {}), base);
  const url = withView(base, {
    mirror: "h",
    transparent: true,
    delay: 10,
    clock: true,
    clockZone: "Europe/Paris",
    hide: ["brand", "progress"],
  });
  assert.equal(
    url,
    "https://t.example/widget?duration=60&mirror=h&transparent=1&delay=10&clock=1&timezone=Europe%2FParis&hide=progress%2Cbrand",
  );
  assert.deepEqual(parseViewParams(new URL(url).searchParams), {
    mirror: "h",
    transparent: true,
    delay: 10,
    clock: true,
    clockZone: "Europe/Paris",
    hide: ["progress", "brand"],
  });
});

Deno.test("withView keeps an event's own time zone for the clock", () => {
  const url = withView("https://t.example/widget?type=event&timezone=Asia%2FTokyo", {
    clock: true,
    clockZone: "Europe/Paris",
  });
  assert.equal(new URL(url).searchParams.getAll("timezone").join(), "Asia/Tokyo");
});

Deno.test("viewAttrs marks <html> for the style sheet", () => {
  assert.deepEqual(viewAttrs(undefined), {});
  assert.deepEqual(
    viewAttrs({
      mirror: "both",
      transparent: true,
      delay: 0,
      clock: false,
      clockZone: null,
      hide: ["title", "progress"],
    }),
    { "data-mirror": "both", "data-transparent": "", "data-hide": "title progress" },
  );
});
