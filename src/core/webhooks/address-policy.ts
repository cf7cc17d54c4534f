import ipaddr from 'ipaddr.js';

/**
 * Which addresses a webhook may be delivered to: public unicast only. Refused: private,
 * loopback, link-local (cloud metadata 169.254.169.254 among them), CGNAT (100.64/10, where some
 * clouds put metadata), multicast, broadcast, unspecified, reserved/documentation, unique-local
 * IPv6 (fd00:ec2::254), and every IPv6 form that embeds an IPv4 address: mapped (judged by the
 * IPv4 inside), and NAT64, 6to4, Teredo, IPv4-compatible (refused outright: a gateway we do not
 * control would carry them to an IPv4 address we cannot see). ipaddr.js names the ranges; anything
 * it does not call `unicast` is refused, and so is IPv6 outside 2000::/3 (the only block IANA
 * allocates for global unicast; ipaddr.js calls `::7f00:1` or `f000::1` plain unicast).
 *
 * Checked at registration (the URL's host) and again on the connected socket at every delivery
 * (DNS rebinding: the name may resolve elsewhere by then).
 */
export function refusedAddress(address: string): string | null {
  const judged = judgeAddress(address);
  if (judged === null) return `'${address}' is not an IP address`;
  return judged.range === null ? null : `${judged.shown} is not a public address (${judged.range})`;
}

/**
 * The class of a non-public address (`private`, `loopback`, `linkLocal`, …), null when it is
 * public, `invalid` when it is not an address. For messages about a host *name*: they say which
 * class it resolved to without echoing the address (a name may be a CNAME onto an internal name,
 * and the answer must not turn registration or the delivery log into an internal DNS oracle).
 */
export function nonPublicClass(address: string): string | null {
  const judged = judgeAddress(address);
  return judged === null ? 'invalid' : judged.range;
}

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
/** `::a.b.c.d`, deprecated IPv4-compatible IPv6 (RFC 4291 §2.5.5.1); `::` and `::1` are named first. */
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

function judgeAddress(address: string): { shown: string; range: string | null } | null {
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    // Brackets (URL form) and a zone id (`fe80::1%eth0`) are not part of the address.
    ip = ipaddr.parse(address.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, ''));
  } catch {
    return null;
  }
  if (ip.kind() === 'ipv4') {
    const range = ip.range();
    return { shown: ip.toString(), range: range === 'unicast' ? null : range };
  }
  const v6 = ip as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return judgeAddress(v6.toIPv4Address().toString());
  const range = v6.range();
  const shown = v6.toString();
  if (range !== 'unicast') return { shown, range };
  if (v6.match(IPV4_COMPATIBLE)) return { shown, range: 'ipv4Compatible' };
  if (!v6.match(GLOBAL_UNICAST_V6)) return { shown, range: 'notGlobalUnicast' };
  return { shown, range: null };
}
