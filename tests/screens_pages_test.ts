/** The server's render of the view parameters (mirror, transparent, delay, clock, hide) on /widget and /v/:id. */
import assert from "node:assert/strict";
import { setPlan } from "../lib/accounts/accounts.ts";
import { setup } from "./helpers.ts";

async function page(s: Awaited<ReturnType<typeof setup>>, path: string) {
  const res = await s.app.app.request(`http://timers.test${path}`);
  return { status: res.status, html: await res.text() };
}

/** The attributes of the <html> element. */
const htmlTag = (html: string) => /<html[^>]*>/.exec(html)![0];

Deno.test("view parameters mark the page for the style sheet, on the widget and the viewer", async () => {
  const s = await setup();
  const t = await s.create({ type: "countdown", duration: 60, title: "Talk" });
  for (const path of ["/widget?duration=60&", `/widget?id=${t.timer_id}&`, `/v/${t.timer_id}?`]) {
    const r = await page(s, `${path}mirror=both&transparent=1&hide=progress,zone`);
    assert.equal(r.status, 200, path);
    const tag = htmlTag(r.html);
    assert.match(tag, /data-mirror="both"/, path);
    assert.match(tag, /data-transparent=""/, path);
    assert.match(tag, /data-hide="progress zone"/, path);
    assert.match(r.html, /href="\/static\/screens\.css\?v=/, path);
    const plain = htmlTag((await page(s, `${path}mirror=sideways&transparent=2&hide=everything`)).html);
    assert.doesNotMatch(plain, /data-mirror|data-transparent|data-hide/, path);
  }
  // A widget's own problems and 404 are transparent too (an OBS source never flashes a card).
  assert.match(htmlTag((await page(s, "/widget?transparent=1")).html), /data-transparent/);
  assert.match(htmlTag((await page(s, "/widget?id=tmr_nothing&transparent=1")).html), /data-transparent/);
  await s.close();
});

Deno.test("delay renders the timer as it was, and the time of day is in the given zone", async () => {
  const s = await setup();
  const t = await s.create({ type: "countdown", duration: 600 });
  await s.act(t.timer_id, "start");
  s.clock.advance(60_000);
  const clockOf = (html: string) => /<span class="face-hms">([^<]+)</.exec(html)![1];
  assert.equal(clockOf((await page(s, `/v/${t.timer_id}`)).html), "09:00");
  assert.equal(clockOf((await page(s, `/v/${t.timer_id}?delay=10`)).html), "09:10");
  assert.equal(clockOf((await page(s, `/widget?id=${t.timer_id}&delay=75`)).html), "10:00");
  assert.match((await page(s, `/widget?id=${t.timer_id}&delay=75`)).html, /data-state="idle"/, "before its start");
  // T0 + 60 s is 12:01 UTC, 21:01 in Tokyo; without a zone the viewer's own fills it in.
  const tokyo = (await page(s, `/v/${t.timer_id}?clock=1&timezone=Asia/Tokyo&lang=en`)).html;
  assert.match(tokyo, /<time class="face-clock-time">09:01 PM<\/time><span class="face-clock-zone">Tokyo/);
  assert.match((await page(s, `/v/${t.timer_id}?clock=1`)).html, /<time class="face-clock-time">--:--<\/time>/);
  assert.doesNotMatch((await page(s, `/v/${t.timer_id}`)).html, /face-clock/);
  await s.close();
});

Deno.test("hide=title hides the viewer's title; hide=brand is honoured for paid plans only", async () => {
  const s = await setup();
  const t = await s.create({ type: "countdown", duration: 60, title: "Secret title" });
  const brand = (html: string) => /class="face-brand"/.test(html);
  const viewer = await page(s, `/v/${t.timer_id}?hide=title`);
  assert.doesNotMatch(viewer.html, /<h1 class="face-title"/);
  assert.match(viewer.html, /&quot;hideTitle&quot;:true/, "a live snapshot's title must not bring it back");
  assert.ok(!brand((await page(s, `/v/${t.timer_id}?hide=brand`)).html), "pro plan");
  assert.ok(!brand((await page(s, `/widget?id=${t.timer_id}&hide=brand`)).html), "pro plan");
  assert.ok(brand((await page(s, `/v/${t.timer_id}`)).html));
  assert.ok(brand((await page(s, "/widget?duration=60&hide=brand")).html), "no timer, no paying owner");
  await setPlan(s.store, s.pro.account.id, "free");
  assert.ok(brand((await page(s, `/v/${t.timer_id}?hide=brand`)).html), "the owner is on the free plan now");
  await s.close();
});
