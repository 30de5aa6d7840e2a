import assert from "node:assert/strict";
import { asLang, LANGS, negotiateLang, texts } from "./i18n.ts";

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
