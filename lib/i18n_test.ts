import assert from "node:assert/strict";
import { asLang, LANGS, negotiateLang, texts } from "./i18n.ts";
import { rundownTexts } from "./i18n_rundown.ts";

Deno.test("every language has every text, with the same placeholders as English", () => {
  const en = texts("en");
  const holes = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort().join(",");
  for (const lang of LANGS) {
    const t = texts(lang);
    assert.deepEqual(Object.keys(t).sort(), Object.keys(en).sort(), lang);
    for (const [k, v] of Object.entries(t)) {
      assert.ok(v.trim().length > 0, `${lang}.${k} is empty`);
      assert.equal(holes(v), holes(en[k as keyof typeof en]), `${lang}.${k} placeholders`);
    }
    if (lang !== "en") assert.notEqual(t.state_running, en.state_running, `${lang} is translated`);
  }
});

Deno.test("lang values: supported codes, region tags and case; anything else is not a language", () => {
  assert.equal(asLang("zh"), "zh");
  assert.equal(asLang("zh-CN"), "zh");
  assert.equal(asLang("FR"), "fr");
  assert.equal(asLang("pt"), null);
  assert.equal(asLang(""), null);
  assert.equal(asLang(null), null);
});

Deno.test("Accept-Language picks the best supported language, else English", () => {
  assert.equal(negotiateLang("pt-BR,ja;q=0.8,en;q=0.5"), "ja");
  assert.equal(negotiateLang("de;q=0.2, ko"), "ko");
  assert.equal(negotiateLang("pt, it"), "en");
  assert.equal(negotiateLang(undefined), "en");
  assert.equal(negotiateLang("fr;q=0, es;q=0.1"), "es");
});

Deno.test("Accept-Language: only the first entries are read, so a 64 KB header costs what a short one does", () => {
  // Browsers send a handful of ranges; a header of 30 000 was parsed, sorted and searched whole
  // (25 ms of the event loop per call, for any visitor of any page, without a limit).
  assert.equal(negotiateLang(`${"xx,".repeat(40)}fr`), "en");
  assert.equal(negotiateLang(`${"xx,".repeat(10)}fr`), "fr");
  assert.equal(negotiateLang(`${"xx;".repeat(40)}q=1,de`), "de");
  const huge = [`${"a,".repeat(30_000)}ja`, `${"zz;q=0.5,".repeat(6_500)}ko`, `de${";q=1".repeat(15_000)}`];
  const started = performance.now();
  for (let i = 0; i < 20; i++) for (const h of huge) negotiateLang(h);
  const each = (performance.now() - started) / 60;
  assert.ok(each < 1, `${each.toFixed(2)} ms a call`);
});

Deno.test("the rundown pages' texts: every language has every text, with the same placeholders as English", () => {
  const en = rundownTexts("en");
  const holes = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort().join(",");
  for (const lang of LANGS) {
    const t = rundownTexts(lang);
    assert.deepEqual(Object.keys(t).sort(), Object.keys(en).sort(), lang);
    for (const [k, v] of Object.entries(t)) {
      assert.ok(v.trim().length > 0, `${lang}.${k} is empty`);
      assert.equal(holes(v), holes(en[k as keyof typeof en]), `${lang}.${k} placeholders`);
    }
    if (lang !== "en") assert.notEqual(t.on_time, en.on_time, `${lang} is translated`);
  }
});
