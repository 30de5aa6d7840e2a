import assert from "node:assert/strict";
import {
  addressProblem,
  isPrivateAddress,
  pinnedLookup,
  resolveDestination,
  rfc3986Href,
  webhookUrlProblem,
} from "./destinations.ts";
import { postOnce } from "./deliver.ts";
import { signDelivery } from "./signing.ts";
import { PRIVATE_HOSTS } from "./testdata/private_hosts.ts";

const PAYLOAD = {
  id: "evt_destinations",
  event: "webhook.test",
  timestamp: "2026-11-22T12:00:00.000Z",
  timer_id: "tmr_destinations",
  title: null,
  type: "countdown" as const,
  data: {},
};
const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

/** Public unicast destinations (never contacted by these tests). */
const PUBLIC_HOSTS = [
  "93.184.216.34",
  "8.8.8.8",
  "172.32.0.1",
  "[2606:4700:4700::1111]",
  "[::ffff:8.8.8.8]",
  "[64:ff9b::808:808]",
  "[2002:808:808::1]",
  "[2001:0:4136:e378:8000:63bf:f7f7:f7f7]", // Teredo: server 65.54.227.120, client 8.8.8.8
];

Deno.test("every spelling of a non-public address is refused at create time and at send time", async () => {
  assert.ok(PRIVATE_HOSTS.length >= 36);
  const req = signDelivery(PAYLOAD, [SECRET], Date.now());
  const unused = () => Promise.reject(new Error("an IP literal must not be resolved"));
  for (const host of PRIVATE_HOSTS) {
    const url = new URL(`https://${host}:8443/hook`);
    assert.match(webhookUrlProblem(url, false) ?? "", /must point to a public address/, host);
    assert.equal(webhookUrlProblem(url, true), null, host);
    const r = await postOnce(url.href, req, { timeoutMs: 500, allowPrivate: false, resolve: unused });
    assert.equal(r.ok, false, host);
    assert.equal(r.status, null, host);
    assert.match(r.error!, /non-public/, `${host}: ${r.error}`);
  }
  for (const host of PUBLIC_HOSTS) {
    assert.equal(webhookUrlProblem(new URL(`https://${host}/hook`), false), null, host);
    const dest = await resolveDestination(new URL(`https://${host}/hook`), { allowPrivate: false, resolve: unused });
    assert.equal(dest.error, undefined, host);
  }
  // A host name is not resolved at create time; it is checked when it is sent to.
  assert.equal(webhookUrlProblem(new URL("https://hooks.example.com/x"), false), null);
});

Deno.test("addresses are classified by range, embedded IPv4 judged by what it carries", () => {
  assert.equal(addressProblem("127.0.0.1"), "loopback");
  assert.equal(addressProblem("::1"), "loopback");
  assert.equal(addressProblem("[::]"), "unspecified");
  assert.equal(addressProblem("::ffff:127.0.0.1"), "ipv4Mapped address of a loopback IPv4 address");
  assert.equal(addressProblem("64:ff9b::a9fe:a9fe"), "rfc6052 address of a linkLocal IPv4 address");
  assert.equal(addressProblem("100.64.0.1"), "carrierGradeNat");
  assert.equal(addressProblem("fe80::1%eth0"), "scoped (zone) address");
  assert.equal(addressProblem("example.com"), "not an IP address");
  assert.equal(addressProblem("8.8.8.8"), null);
  for (const ip of ["10.1.2.3", "172.31.255.255", "::1", "fd00::1", "ff02::1", "::ffff:7f00:1"]) {
    assert.ok(isPrivateAddress(ip), ip);
  }
  assert.ok(!isPrivateAddress("2606:4700:4700::1111"));
});

Deno.test("every DNS answer is checked: one private answer refuses the destination", async () => {
  const answers: Record<string, string[]> = {
    "mixed.example.test": ["93.184.216.34", "127.0.0.1"],
    "mapped.example.test": ["2606:4700:4700::1111", "::ffff:7f00:1"],
    "metadata.example.test": ["169.254.169.254"],
    "empty.example.test": [],
    "public.example.test": ["93.184.216.34", "::ffff:8.8.8.8"],
  };
  const resolve = (host: string) => Promise.resolve(answers[host] ?? []);
  for (const host of ["mixed", "mapped", "metadata"]) {
    const d = await resolveDestination(new URL(`https://${host}.example.test/`), { allowPrivate: false, resolve });
    assert.match(d.error!, /non-public address/, host);
  }
  const empty = await resolveDestination(new URL("https://empty.example.test/"), { allowPrivate: false, resolve });
  assert.match(empty.error!, /could not resolve empty\.example\.test/);
  const ok = await resolveDestination(new URL("https://public.example.test/"), { allowPrivate: false, resolve });
  // IPv4-mapped answers are connected to as the IPv4 address they carry.
  assert.deepEqual(ok.addresses, ["93.184.216.34", "8.8.8.8"]);
  // With private destinations allowed, answers are still pinned, and localhost is loopback without DNS.
  const local = await resolveDestination(new URL("http://localhost:8000/"), { allowPrivate: true, resolve });
  assert.deepEqual(local.addresses, ["127.0.0.1", "::1"]);
});

Deno.test("the pinned lookup answers only the checked addresses, by family when asked", () => {
  const lookup = pinnedLookup(["93.184.216.34", "2606:4700:4700::1111"]);
  const calls: unknown[][] = [];
  const cb = (...args: unknown[]) => calls.push(args);
  lookup("anything.example", { all: true }, cb);
  lookup("anything.example", {}, cb);
  lookup("anything.example", { family: 6 }, cb);
  lookup("anything.example", { family: 4, all: true }, cb);
  assert.deepEqual(calls[0], [null, [{ address: "93.184.216.34", family: 4 }, {
    address: "2606:4700:4700::1111",
    family: 6,
  }]]);
  assert.deepEqual(calls[1], [null, "93.184.216.34", 4]);
  assert.deepEqual(calls[2], [null, "2606:4700:4700::1111", 6]);
  assert.deepEqual(calls[3], [null, [{ address: "93.184.216.34", family: 4 }]]);
  const none: unknown[][] = [];
  pinnedLookup(["127.0.0.1"])("x", { family: 6 }, (...a: unknown[]) => none.push(a));
  assert.match(String(none[0][0]), /no checked IPv6 address/);
});

Deno.test("rfc3986Href leaves only RFC 3986 characters after the host, and is stable when parsed again", () => {
  // Path, query and fragment characters of RFC 3986 (unreserved, sub-delims, : @ / ?) or an escape.
  const rfc3986 =
    /^https:\/\/[^/?#]+(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/]|%[0-9A-Fa-f]{2})*(?:\?(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9A-Fa-f]{2})*)?(?:#(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9A-Fa-f]{2})*)?$/;
  const ascii = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join("");
  for (const host of ["example.com", "example.com:8443", "[2606:4700:4700::1111]", "例え.jp"]) {
    for (const tail of [`/${ascii}`, `/p?${ascii}`, `/p#${ascii}`, "/%", "/%4", "/%41%zz", "/é?é#é"]) {
      const href = rfc3986Href(new URL(`https://${host}${tail}`));
      assert.match(href, rfc3986, `${host}${tail}`);
      assert.equal(rfc3986Href(new URL(href)), href, `${host}${tail}`);
      assert.equal(new URL(href).host, new URL(`https://${host}`).host);
    }
  }
  // The part before the path is kept as WHATWG URL wrote it, user info included.
  assert.equal(rfc3986Href(new URL("https://u:p@example.com/a[b]")), "https://u:p@example.com/a%5Bb%5D");
  // Already valid URLs are unchanged, an empty query or fragment included (no "https://example.com//h").
  for (
    const ok of [
      "https://example.com/hooks/timer?a=1&b=%2F#x",
      "https://[::1]:9/h",
      "https://example.com",
      "https://example.com/h?",
      "https://example.com/h#",
      "https://example.com/h?#",
      "https://example.com?",
      "https://u:p@example.com:8443/h?a#",
    ]
  ) {
    assert.equal(rfc3986Href(new URL(ok)), new URL(ok).href);
  }
});

Deno.test("an attempt to a port outside 80, 443 and 1024–65535 is refused before resolving", async () => {
  let asked = 0;
  const resolve = () => (asked++, Promise.resolve(["93.184.216.34"]));
  const d = await resolveDestination(new URL("https://hooks.example.com:25/x"), { allowPrivate: false, resolve });
  assert.equal(d.error, "destination port 25 is not allowed");
  assert.equal(asked, 0);
  const ok = await resolveDestination(new URL("https://hooks.example.com:8443/x"), { allowPrivate: false, resolve });
  assert.deepEqual(ok.addresses, ["93.184.216.34"]);
});
