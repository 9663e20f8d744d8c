// Which addresses a webhook may be sent to: Forgejo's [webhook] ALLOWED_HOST_LIST vocabulary
// (modules/hostmatcher): `external` (the default: global unicast addresses), `private` (RFC 1918, RFC 4193 and the
// special-purpose ranges Forgejo adds), `loopback`, `*` (anything), CIDRs, and host-name globs. A host name that
// matches a glob is allowed whatever it resolves to; otherwise the address connected to must match.
import ipaddr from 'ipaddr.js';
import { compileHostGlob, type GlobMatcher } from './glob.ts';
import { isLocalNetworkAddress } from './network-address.ts';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** Forgejo's private set: RFC 1918 and RFC 4193 plus the reserved ranges hostmatcher lists beside them. */
const PRIVATE_RANGES = [
  '10.0.0.0/8',
  '172.16.0.0/12',
  '192.168.0.0/16',
  'fc00::/7',
  '100.64.0.0/10',
  '168.63.129.16/32',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.88.99.0/24',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '100::/64',
  '64:ff9b::/96',
  '64:ff9b:1::/48',
  '2001::/32',
  '2001:10::/28',
  '2001:20::/28',
  '2001:db8::/32',
  '2002::/16',
].map((cidr) => ipaddr.parseCIDR(cidr));

export interface HostAllowList {
  readonly text: string;
  readonly builtins: ReadonlySet<'external' | 'private' | 'loopback'>;
  readonly any: boolean;
  readonly globs: readonly GlobMatcher[];
  readonly ranges: readonly [Address, number][];
}

export function parseHostAllowList(text: string): HostAllowList {
  const builtins = new Set<'external' | 'private' | 'loopback'>();
  const globs: GlobMatcher[] = [];
  const ranges: [Address, number][] = [];
  let any = false;
  for (const raw of (text.trim() || 'external').split(',')) {
    const item = raw.trim().toLowerCase();
    if (item === '') continue;
    if (item === 'external' || item === 'private' || item === 'loopback') builtins.add(item);
    else if (item === '*') any = true;
    else if (item.includes('/') && ipaddr.isValidCIDR(item)) ranges.push(ipaddr.parseCIDR(item));
    else {
      const glob = compileHostGlob(item);
      if (glob) globs.push(glob);
    }
  }
  return { text, builtins, any, globs, ranges };
}

function parseAddress(ip: string): Address | null {
  try {
    const parsed = ipaddr.parse(ip.replace(/^\[|\]$/g, ''));
    return parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()
      ? (parsed as ipaddr.IPv6).toIPv4Address()
      : parsed;
  } catch {
    return null;
  }
}

function inRange(address: Address, [network, bits]: [Address, number]): boolean {
  return address.kind() === network.kind() && address.match(network, bits);
}

export function isPrivateAddress(ip: string): boolean {
  const address = parseAddress(ip);
  return address !== null && PRIVATE_RANGES.some((range) => inRange(address, range));
}

function addressAllowed(list: HostAllowList, ip: string): boolean {
  if (list.any) return true;
  const address = parseAddress(ip);
  if (!address) return false;
  if (list.builtins.has('external') && !isLocalNetworkAddress(address.toString()) && !isPrivateAddress(ip)) return true;
  if (list.builtins.has('private') && isPrivateAddress(ip)) return true;
  if (list.builtins.has('loopback') && address.range() === 'loopback') return true;
  return list.ranges.some((range) => inRange(address, range));
}

/** Whether a request to `host` may connect to `ip` (hostmatcher's MatchHostOrIP). */
export function isHostAllowed(list: HostAllowList, host: string, ip: string): boolean {
  const name = host.replace(/^\[|\]$/g, '');
  if (list.globs.some((glob) => glob.test(name) || glob.test(ip))) return true;
  return addressAllowed(list, ip);
}
