// The address an outgoing request may connect to under a host allow list ([webhook] or [federation]
// ALLOWED_HOST_LIST): the host is resolved here, each address is checked, and the socket is opened to the checked
// address itself (the resolver handed to node:http answers only that address), so a second DNS answer cannot move
// the request elsewhere.
import dns from 'node:dns/promises';
import net from 'node:net';
import type { LookupFunction } from 'node:net';
import { type HostAllowList, isHostAllowed } from '../../domain/host-allow-list.ts';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** The first address of `host` the list allows; null when none is. A failing DNS lookup throws its error. */
export async function allowedAddress(host: string, allowList: HostAllowList): Promise<ResolvedAddress | null> {
  const bare = host.replace(/^\[|\]$/g, '');
  const candidates = net.isIP(bare)
    ? [{ address: bare, family: net.isIP(bare) }]
    : await dns.lookup(bare, { all: true, verbatim: true });
  return candidates.find((candidate) => isHostAllowed(allowList, bare, candidate.address)) ?? null;
}

/** A resolver for node:http that answers the one address already checked. */
export function pinnedLookup({ address, family }: ResolvedAddress): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as unknown as LookupFunction;
}
