// NodeInfo 2.1 documents (https://nodeinfo.diaspora.software/schema.html), shaped as Forgejo shapes them.
import type { components } from '../../generated/api.d.ts';
import type { NodeInfoFacts } from '../db/site-usage.repository.ts';
import { ANVIL_VERSION } from '../lib/version.ts';

type NodeInfo = components['schemas']['NodeInfo'];

export const NODEINFO_SCHEMA_2_1 = 'http://nodeinfo.diaspora.software/ns/schema/2.1';

/** Zero counts are left out, as Forgejo's omitempty does. */
function nonZero(value: number): number | undefined {
  return value === 0 ? undefined : value;
}

export function toNodeInfo(facts: NodeInfoFacts): NodeInfo {
  const usage = facts.usage;
  return {
    version: '2.1',
    // Forgejo's identity: federated peers and clients decide what to expect from it.
    software: {
      name: 'forgejo',
      version: ANVIL_VERSION,
      repository: 'https://codeberg.org/forgejo/forgejo.git',
      homepage: 'https://forgejo.org/',
    },
    protocols: ['activitypub'],
    services: { inbound: [], outbound: ['rss2.0'] },
    openRegistrations: facts.openRegistrations,
    usage: usage
      ? {
          users: {
            total: nonZero(usage.users),
            activeMonth: nonZero(usage.activeMonth),
            activeHalfyear: nonZero(usage.activeHalfyear),
          },
          localPosts: nonZero(usage.issues),
          localComments: nonZero(usage.comments),
        }
      : { users: {} },
    metadata: {},
  };
}

export function toNodeInfoLinks(rootUrl: string) {
  return { links: [{ rel: NODEINFO_SCHEMA_2_1, href: `${rootUrl}api/v1/nodeinfo` }] };
}
