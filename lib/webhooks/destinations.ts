/**
 * Where a webhook may go. Addresses are classified by ipaddr.js, never by hand-written patterns:
 * an address is public only when its range is `unicast`. IPv6 forms that carry an IPv4 address
 * (IPv4-mapped `::ffff:0:0/96`, IPv4-translated `::ffff:0:0:0/96`, IPv4-compatible `::/96`, NAT64
 * `64:ff9b::/96`, 6to4 `2002::/16`, Teredo `2001::/32`) are judged by the IPv4 address they carry.
 *
 * A destination is resolved once per attempt (A and AAAA), every answer is checked, and the
 * connection is made to exactly the checked addresses (see `pinnedLookup` and deliver.ts), so a
 * second DNS answer can never swap a public address for a private one (DNS rebinding).
 */
import ipaddr from "ipaddr.js";

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** Resolves a host name to its addresses (A and AAAA); injectable so tests can play DNS. */
export type Resolver = (hostname: string, signal?: AbortSignal) => Promise<string[]>;

/** The system's DNS through `Deno.resolveDns`: A and AAAA, whichever answer. */
export const systemResolver: Resolver = async (hostname, signal) => {
  const results = await Promise.allSettled([
    Deno.resolveDns(hostname, "A", { signal }),
    Deno.resolveDns(hostname, "AAAA", { signal }),
  ]);
  return results.flatMap((r) => r.status === "fulfilled" ? r.value : []);
};

/** The IPv4 address an IPv6 address carries in its last 32 bits. */
function low32(a: ipaddr.IPv6): ipaddr.IPv4 {
  const p = a.parts;
  return new ipaddr.IPv4([p[6] >> 8, p[6] & 255, p[7] >> 8, p[7] & 255]);
}

/** The IPv4 addresses an IPv6 address embeds (by the transition mechanism its range names). */
function embedded(a: ipaddr.IPv6): ipaddr.IPv4[] | null {
  const p = a.parts;
  switch (a.range()) {
    case "ipv4Mapped": // ::ffff:a.b.c.d
    case "rfc6145": // ::ffff:0:a.b.c.d
      return [low32(a)];
    case "rfc6052": // NAT64: the well-known prefix 64:ff9b::/96 only; 64:ff9b:1::/48 is local use
      return p[2] === 0 && p[3] === 0 && p[4] === 0 && p[5] === 0 ? [low32(a)] : null;
    case "6to4": // 2002:AABB:CCDD::/48
      return [new ipaddr.IPv4([p[1] >> 8, p[1] & 255, p[2] >> 8, p[2] & 255])];
    case "teredo": // 2001:0:<server v4>:<flags>:<port>:<client v4 xor ffff:ffff>
      return [
        new ipaddr.IPv4([p[2] >> 8, p[2] & 255, p[3] >> 8, p[3] & 255]),
        new ipaddr.IPv4([(p[6] >> 8) ^ 255, (p[6] & 255) ^ 255, (p[7] >> 8) ^ 255, (p[7] & 255) ^ 255]),
      ];
  }
  // IPv4-compatible ::a.b.c.d (deprecated; ipaddr.js calls it unicast): judged by what it carries.
  if (a.parts.slice(0, 6).every((x) => x === 0)) return [low32(a)];
  return null;
}

/**
 * Why an address may not receive webhooks (its range, e.g. "loopback", "private"), or null when
 * it is public unicast. Anything that does not parse as an IP address is refused.
 */
export function addressProblem(ip: string): string | null {
  let a: Address;
  try {
    a = ipaddr.parse(ip.replace(/^\[|\]$/g, ""));
  } catch {
    return "not an IP address";
  }
  if (a.kind() === "ipv6") {
    const v6 = a as ipaddr.IPv6;
    if (v6.zoneId) return "scoped (zone) address";
    // ::1 and :: are themselves, not IPv4-compatible addresses of 0.0.0.1 and 0.0.0.0.
    if (v6.range() === "loopback" || v6.range() === "unspecified") return v6.range();
    const inner = embedded(v6);
    if (inner) {
      const bad = inner.map((x) => x.range()).find((r) => r !== "unicast");
      return bad ? `${v6.range()} address of a ${bad} IPv4 address` : null;
    }
  }
  const range = a.range();
  return range === "unicast" ? null : range;
}

/** Whether an IP address is loopback, private, link-local, multicast or otherwise not public unicast. */
export function isPrivateAddress(ip: string): boolean {
  return addressProblem(ip) !== null;
}

/** The host of a URL without IPv6 brackets, lower case (WHATWG URL has normalised IPv4 forms already). */
function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
}

/** `localhost` and its subdomains (RFC 6761), with any number of trailing dots (`localhost..` resolves too). */
function isLocalhost(host: string): boolean {
  const name = host.replace(/\.+$/, "");
  return name === "localhost" || name.endsWith(".localhost");
}

function isIpLiteral(host: string): boolean {
  return host.includes(":") ? ipaddr.IPv6.isValid(host) : ipaddr.IPv4.isValidFourPartDecimal(host);
}

/**
 * What is wrong with a webhook URL's destination that can be told without DNS: an IP literal
 * (in any spelling WHATWG URL accepts, e.g. `127.1`, `0x7f.1`, `2130706433`, `[::ffff:7f00:1]`)
 * or `localhost` that is not public. Null when fine (or when `allowPrivate`). Used at create and
 * PATCH time; every attempt checks the resolved addresses again.
 */
export function webhookUrlProblem(url: URL, allowPrivate: boolean): string | null {
  if (allowPrivate) return null;
  const port = portProblem(url);
  if (port) return port;
  const host = hostOf(url);
  const why = isLocalhost(host) ? "loopback" : isIpLiteral(host) ? addressProblem(host) : null;
  return why
    ? `webhook_url must point to a public address, got ${url.hostname} (${why}); use a public https URL`
    : null;
}

/** The Fetch standard's "bad ports" from 1024 up (those below are refused anyway). */
const BAD_PORTS = new Set([
  1719,
  1720,
  1723,
  2049,
  3659,
  4045,
  4190,
  5060,
  5061,
  6000,
  6566,
  6665,
  6666,
  6667,
  6668,
  6669,
  6679,
  6697,
  10080,
]);

/** The port a URL connects to. */
export function portOf(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
}

/**
 * Webhooks go to ports 80, 443 and 1024–65535, less the Fetch standard's bad ports (DECISIONS.md,
 * "Destinations"): a destination is a web receiver, not a mail, SSH or database port to probe.
 * Null when allowed (with WEBHOOK_ALLOW_PRIVATE any port is: local development).
 */
export function portProblem(url: URL): string | null {
  const port = portOf(url);
  if (port === 80 || port === 443 || (port >= 1024 && !BAD_PORTS.has(port))) return null;
  return `webhook_url must use port 80, 443 or 1024–65535 (not a port browsers refuse), got ${port}`;
}

/**
 * The URL as RFC 3986 spells it. WHATWG URL percent-encodes non-ASCII but leaves some characters that
 * RFC 3986 allows nowhere in a path, query or fragment (`[ ] \ ^ \` { | }`, a `%` that starts no
 * escape, a second `#`); they are percent-encoded here (the same resource: a `%` alone is a literal
 * one, `%25`), so the stored, answered and POSTed-to URL is a valid `uri` as the document declares it.
 */
export function rfc3986Href(url: URL): string {
  // The path starts at the first "/" after "//" (neither the host nor the user info, where WHATWG
  // encodes it, holds one). Not pathname + search + hash: an empty query or fragment ("/h?", "/h#")
  // stays in `href` while `search` and `hash` are "", which cut the head short ("https://x//h").
  const start = url.href.indexOf("/", url.protocol.length + 2);
  const head = start < 0 ? url.href : url.href.slice(0, start);
  const tail = start < 0 ? "" : url.href.slice(start);
  let inFragment = false;
  const rest = tail.replace(/%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~!$&'()*+,;=:@/?%]/g, (c) => {
    if (c === "#" && !inFragment) return (inFragment = true, c);
    return "%" + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0");
  });
  return head + rest;
}

/** `p`, or the signal's reason once it aborts (whether or not `p` heeds the signal). */
function withDeadline<T>(p: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return p;
  signal.throwIfAborted();
  const { promise, reject } = Promise.withResolvers<never>();
  const abort = () => reject(signal.reason);
  signal.addEventListener("abort", abort, { once: true });
  return Promise.race([p, promise]).finally(() => signal.removeEventListener("abort", abort));
}

/** The addresses a delivery connects to, all of them checked; or why it may not go. */
export type Destination = { addresses: string[]; error?: undefined } | { addresses?: undefined; error: string };

/**
 * Resolves a URL's host once and checks every answer: one non-public answer refuses the whole
 * destination (unless `allowPrivate`). Resolving stops when `signal` aborts (its reason is thrown). IP literals are not resolved; `localhost` is loopback
 * (RFC 6761) without asking DNS. IPv4-mapped answers are connected to as the IPv4 they carry.
 */
export async function resolveDestination(
  url: URL,
  opts: { allowPrivate: boolean; resolve?: Resolver; signal?: AbortSignal },
): Promise<Destination> {
  const host = hostOf(url);
  if (!opts.allowPrivate && portProblem(url)) return { error: `destination port ${portOf(url)} is not allowed` };
  let answers: string[];
  if (isLocalhost(host)) answers = ["127.0.0.1", "::1"];
  else if (isIpLiteral(host)) answers = [host];
  else {
    try {
      answers = await withDeadline((opts.resolve ?? systemResolver)(host, opts.signal), opts.signal);
    } catch (e) {
      // The attempt's deadline passed while resolving: the caller reports it as a timeout.
      if (opts.signal?.aborted) throw opts.signal.reason;
      return { error: `could not resolve ${host}: ${(e as Error).message.slice(0, 100)}` };
    }
    if (answers.length === 0) return { error: `could not resolve ${host}` };
  }
  const addresses: string[] = [];
  for (const answer of answers) {
    let a: Address;
    try {
      a = ipaddr.parse(answer);
    } catch {
      return { error: `${host} resolved to something that is not an IP address` };
    }
    if (!opts.allowPrivate) {
      const why = addressProblem(answer);
      // Not the address itself: the owner reads this error, and it must not map the operator's network.
      if (why) return { error: `destination ${host} resolves to a non-public address (${why})` };
    }
    if (a.kind() === "ipv6" && (a as ipaddr.IPv6).isIPv4MappedAddress()) a = (a as ipaddr.IPv6).toIPv4Address();
    addresses.push(a.toString());
  }
  return { addresses };
}

type LookupCallback = (
  err: Error | null,
  address: string | { address: string; family: number }[],
  family?: number,
) => void;

/**
 * A `lookup` for node:http(s) that answers only the checked addresses: the connection goes to
 * exactly what was checked while the URL's host name stays the Host header, the TLS server name
 * (SNI) and the name the certificate is verified against.
 */
export function pinnedLookup(addresses: string[]) {
  const entries = addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  return (_hostname: string, options: { all?: boolean; family?: number | string }, cb: LookupCallback) => {
    const want = options?.family === 4 || options?.family === "IPv4"
      ? 4
      : options?.family === 6 || options?.family === "IPv6"
      ? 6
      : 0;
    const fit = want ? entries.filter((e) => e.family === want) : entries;
    if (fit.length === 0) {
      const err = Object.assign(new Error(`no checked IPv${want} address`), { code: "ENOTFOUND" });
      return cb(err, options?.all ? [] : "", undefined);
    }
    if (options?.all) cb(null, fit);
    else cb(null, fit[0].address, fit[0].family);
  };
}
