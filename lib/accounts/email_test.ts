import assert from "node:assert/strict";
import { mailboxOf, parseEmail } from "./email.ts";

Deno.test("spellings of one mailbox are one address: NFKC, lower case, the domain in punycode", () => {
  assert.equal(parseEmail("  Ann@Example.COM "), "ann@example.com");
  // Full-width letters and the @ sign, as a phone keyboard may type them.
  assert.equal(parseEmail("ａｎｎ＠ｅｘａｍｐｌｅ．ｃｏｍ"), "ann@example.com");
  // A decomposed accent (e + U+0301) is the composed é.
  assert.equal(parseEmail("rene\u0301@example.com"), parseEmail("ren\u00e9@example.com"));
  assert.equal(parseEmail("ann@bücher.example"), "ann@xn--bcher-kva.example");
  assert.equal(parseEmail("ann@BÜCHER.example"), "ann@xn--bcher-kva.example");
  // Still refused: nothing the conversion could turn into an address it was not.
  for (const bad of ["ann@exa mple.com", "ann@bücher.example/x", "ann", "ann@bücher"]) {
    assert.throws(() => parseEmail(bad), /email must look like/, bad);
  }
});

Deno.test("per-mailbox limits count name+tag@x as name@x", () => {
  assert.equal(mailboxOf("ann+news@example.com"), "ann@example.com");
  assert.equal(mailboxOf("ann@example.com"), "ann@example.com");
});
