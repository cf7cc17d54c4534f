import ipaddr from 'ipaddr.js';

/**
 * Which addresses a webhook may be delivered to: public unicast only. Refused: private,
 * loopback, link-local (cloud metadata 169.254.169.254 among them), CGNAT (100.64/10, where some
 * clouds put metadata), multicast, broadcast, unspecified, reserved, unique-local IPv6 (fd00:ec2::254),
 * and every IPv6 form that embeds an IPv4 address (mapped, NAT64, 6to4, Teredo), judged by the
 * IPv4 inside or refused. ipaddr.js names the ranges; anything it does not call `unicast` is refused.
 *
 * Checked at registration (the URL's host) and again on the connected socket at every delivery
 * (DNS rebinding: the name may resolve elsewhere by then).
 */
export function refusedAddress(address: string): string | null {
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = ipaddr.parse(address.replace(/^\[|\]$/g, '').replace(/%.*$/, ''));
  } catch {
    return `'${address}' is not an IP address`;
  }
  if (ip.kind() === 'ipv6') {
    const v6 = ip as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) return refusedAddress(v6.toIPv4Address().toString());
  }
  const range = ip.range();
  return range === 'unicast' ? null : `${ip.toString()} is not a public address (${range})`;
}
