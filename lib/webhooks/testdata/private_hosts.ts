/**
 * Hosts (as written in a URL) that must never receive a webhook: every spelling of loopback,
 * private, link-local, metadata, unspecified, multicast and reserved addresses, including IPv6
 * forms that carry such an IPv4 address. Each goes through `new URL`, as a webhook_url does.
 */
export const PRIVATE_HOSTS = [
  "[::ffff:127.0.0.1]",
  "[::ffff:7f00:1]",
  "[0:0:0:0:0:ffff:127.0.0.1]",
  "[::ffff:a9fe:a9fe]", // 169.254.169.254, IPv4-mapped
  "127.1",
  "0x7f.1",
  "2130706433",
  "017700000001",
  "0177.0.0.1",
  "0x7f000001",
  "127.000.000.001",
  "127.0.0.1.",
  "%31%32%37.0.0.1",
  "\uff11\uff12\uff17.\uff10.\uff10.\uff11", // full-width digits
  "127.0.0.1",
  "0.0.0.0",
  "0",
  "[::]",
  "[::1]",
  "[0:0:0:0:0:0:0:1]",
  "localhost",
  "LOCALHOST",
  "api.localhost",
  "localhost.",
  "localhost..", // empty labels at the end still resolve to loopback
  "LOCALHOST%2E%2E",
  "api.localhost...",
  "169.254.169.254",
  "[fe80::1]",
  "[fc00::1]",
  "[fd00::2]",
  "100.64.0.1",
  "10.0.0.1",
  "172.16.0.1",
  "192.168.1.1",
  "192.0.2.2", // documentation range (TEST-NET-1)
  "198.18.0.1", // benchmarking
  "224.0.0.1",
  "255.255.255.255",
  "240.0.0.1",
  "[ff02::1]",
  "[2001:db8::1]",
  "[64:ff9b::7f00:1]", // NAT64 of 127.0.0.1
  "[64:ff9b::a9fe:a9fe]", // NAT64 of the metadata address
  "[64:ff9b:1::808:808]", // local-use NAT64 prefix
  "[2002:7f00:1::]", // 6to4 of 127.0.0.1
  "[2002:a9fe:a9fe::1]", // 6to4 of 169.254.169.254
  "[2001:0:4136:e378:8000:63bf:80ff:fffe]", // Teredo, client 127.0.0.1
  "[2001:0:a00:1:8000:63bf:3fff:fdd2]", // Teredo, server 10.0.0.1
  "[::ffff:0:7f00:1]", // IPv4-translated
  "[::127.0.0.1]", // IPv4-compatible
  "[::ffff:10.0.0.1]",
  "[fec0::1]", // site-local (deprecated)
  "[100::1]", // discard
];
