import ipaddr from "ipaddr.js";

/**
 * Whether an address is public unicast: no loopback, private, link-local (cloud metadata), CGNAT,
 * multicast or reserved range (docs/alerts-and-webhooks.md, "Delivery safety").
 *
 * An IPv6 address that carries an IPv4 address (IPv4-compatible `::a.b.c.d`, IPv4-mapped, SIIT,
 * NAT64, 6to4, Teredo) reaches that IPv4 host, so it is judged by the IPv4 address it carries:
 * `[::7f00:1]` is 127.0.0.1, and `64:ff9b::93.184.215.14` (what DNS64 hands an IPv6-only host for
 * an IPv4-only receiver) is as public as 93.184.215.14.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv4") return parsed.range() === "unicast";
  // The local-use NAT64 prefix 64:ff9b:1::/48 (RFC 8215) is cut by each operator into a prefix of
  // /48 to /96, and where the IPv4 address sits depends on that length (RFC 6052 section 2.2), which
  // a server cannot know: the address it reaches is unknown, so it is not called public.
  if (parsed.match(LOCAL_USE_NAT64)) return false;
  const carried = carriedIPv4(parsed as ipaddr.IPv6);
  if (carried) return carried.every((ipv4) => ipv4.range() === "unicast");
  return parsed.range() === "unicast";
}

const LOCAL_USE_NAT64 = ipaddr.parseCIDR("64:ff9b:1::/48");
const ipv4 = (bytes: number[]): ipaddr.IPv4 => new ipaddr.IPv4(bytes);

/** Every IPv4 address the IPv6 address may deliver to, or undefined when it embeds none. */
function carriedIPv4(address: ipaddr.IPv6): ipaddr.IPv4[] | undefined {
  const bytes = address.toByteArray();
  const last4 = bytes.slice(12, 16);
  switch (address.range()) {
    case "ipv4Mapped": // ::ffff:a.b.c.d
    case "rfc6145": // ::ffff:0:a.b.c.d (SIIT)
    case "rfc6052": // 64:ff9b::a.b.c.d (the local-use 64:ff9b:1::/48 was refused before)
      return [ipv4(last4)];
    case "6to4": // 2002:AABB:CCDD::/48 routes to the relay at AA.BB.CC.DD
      return [ipv4(bytes.slice(2, 6))];
    case "teredo": // 2001:0:<server v4>:<flags>:<port>:<client v4 with every bit flipped>
      return [ipv4(bytes.slice(4, 8)), ipv4(last4.map((byte) => byte ^ 0xff))];
    default:
      // IPv4-compatible ::a.b.c.d (RFC 4291, deprecated); :: and ::1 keep their own ranges.
      return bytes.slice(0, 12).every((byte) => byte === 0) &&
        address.range() !== "unspecified" &&
        address.range() !== "loopback"
        ? [ipv4(last4)]
        : undefined;
  }
}
