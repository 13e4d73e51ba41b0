import { isIP } from "node:net";

// Which addresses the image proxy may connect to: public unicast only. Every other IPv4 special-purpose block
// (RFC 6890 and successors) is refused; IPv6 is allowed only inside global unicast 2000::/3 minus its special
// blocks, so loopback, unspecified, ULA, link-local, multicast, NAT64 and discard prefixes fall outside.
// IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible (::a.b.c.d) IPv6 addresses are judged as the IPv4 inside.

type Cidr4 = [number, number]; // network as uint32, prefix length

const v4 = (dotted: string) => dotted.split(".").reduce((n, part) => n * 256 + Number(part), 0);

const BLOCKED_V4: Cidr4[] = (
  [
    ["0.0.0.0", 8], // "this network"
    ["10.0.0.0", 8], // private
    ["100.64.0.0", 10], // carrier-grade NAT
    ["127.0.0.0", 8], // loopback
    ["169.254.0.0", 16], // link-local (cloud metadata 169.254.169.254)
    ["172.16.0.0", 12], // private
    ["192.0.0.0", 24], // IETF protocol assignments
    ["192.0.2.0", 24], // TEST-NET-1
    ["192.31.196.0", 24], // AS112-v4
    ["192.52.193.0", 24], // AMT
    ["192.88.99.0", 24], // 6to4 relay anycast
    ["192.168.0.0", 16], // private
    ["192.175.48.0", 24], // direct delegation AS112
    ["198.18.0.0", 15], // benchmarking
    ["198.51.100.0", 24], // TEST-NET-2
    ["203.0.113.0", 24], // TEST-NET-3
    ["224.0.0.0", 4], // multicast
    ["240.0.0.0", 4], // reserved, and 255.255.255.255 broadcast
  ] as const
).map(([net, len]) => [v4(net), len]);

function publicV4(n: number): boolean {
  return !BLOCKED_V4.some(([net, len]) => Math.floor(n / 2 ** (32 - len)) === Math.floor(net / 2 ** (32 - len)));
}

/** Eight 16-bit groups of an IPv6 address (zone ids are refused by the caller). */
function groupsOf(address: string): number[] | null {
  let text = address;
  // A trailing dotted quad (::ffff:127.0.0.1) becomes two hex groups (::ffff:7f00:1).
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    if (isIP(dotted[1]!) !== 4) return null;
    const n = v4(dotted[1]!);
    text = `${text.slice(0, -dotted[1]!.length)}${Math.floor(n / 65536).toString(16)}:${(n % 65536).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const parse = (s: string) => (s === "" ? [] : s.split(":").map((h) => (/^[0-9a-f]{1,4}$/.test(h) ? parseInt(h, 16) : NaN)));
  const head = parse(halves[0]!);
  const tail = halves.length === 2 ? parse(halves[1]!) : [];
  const fill = 8 - head.length - tail.length;
  if (halves.length === 1 ? fill !== 0 : fill < 1) return null;
  const groups = [...head, ...Array<number>(fill).fill(0), ...tail];
  return groups.every((g) => Number.isInteger(g)) ? groups : null;
}

function publicV6(g: number[]): boolean {
  const [g0, g1] = [g[0]!, g[1]!];
  // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (compatible, deprecated): judge the IPv4 address.
  if (g.slice(0, 5).every((x) => x === 0) && (g[5] === 0xffff || g[5] === 0)) {
    if (g[5] === 0 && g[6] === 0 && (g[7] === 0 || g[7] === 1)) return false; // :: and ::1
    return publicV4(g[6]! * 65536 + g[7]!);
  }
  if ((g0 & 0xe000) !== 0x2000) return false; // outside global unicast 2000::/3
  if (g0 === 0x2001 && g1 < 0x0200) return false; // 2001::/23 IETF protocol assignments (Teredo, ORCHID, benchmarking…)
  if (g0 === 0x2001 && g1 === 0x0db8) return false; // documentation
  if (g0 === 0x2002) return false; // 6to4 (embeds arbitrary IPv4)
  if (g0 === 0x3fff && g1 < 0x1000) return false; // documentation 3fff::/20
  return true;
}

/** True only for a public unicast address the proxy may connect to. Anything unparsable is not public. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return publicV4(v4(address));
  if (family === 6) {
    if (address.includes("%")) return false; // zone ids are link-local by nature
    const groups = groupsOf(address.toLowerCase());
    return groups !== null && publicV6(groups);
  }
  return false;
}
