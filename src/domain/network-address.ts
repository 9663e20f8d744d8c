// Whether an address is on the public internet. ipaddr.js keeps the IANA special-purpose registries; anything it
// does not call plain unicast (loopback, private, shared 100.64/10, link-local, benchmarking, documentation,
// NAT64/6to4/Teredo, which embed an IPv4 address, …) counts as local, and so does IPv6 outside 2000::/3, the only
// block IANA allocates globally (this catches the deprecated IPv4-compatible ::a.b.c.d form).
import ipaddr from 'ipaddr.js';

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

export function isLocalNetworkAddress(address: string): boolean {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address.replace(/^\[|\]$/g, ''));
  } catch {
    return true; // not an address we understand: never trust it
  }
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) parsed = v6.toIPv4Address();
    else if (!v6.match(GLOBAL_UNICAST_V6)) return true;
  }
  return parsed.range() !== 'unicast';
}
