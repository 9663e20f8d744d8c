// The ActivityStreams Person of a user (Forgejo: routers/api/v1/activitypub/person.go).
import type { User } from '../db/prisma.ts';
import { avatarUrl } from './avatar.ts';

export const ACTIVITY_STREAMS_CONTENT_TYPE = 'application/ld+json; profile="https://www.w3.org/ns/activitystreams"';

export function personId(rootUrl: string, userId: number): string {
  return `${rootUrl.replace(/\/$/, '')}/api/v1/activitypub/user-id/${userId}`;
}

export function toPerson(rootUrl: string, user: User, publicKeyPem: string) {
  const id = personId(rootUrl, user.id);
  return {
    '@context': ['https://www.w3.org/ns/activitystreams', 'https://w3id.org/security/v1'],
    id,
    type: 'Person',
    ...(user.fullName ? { name: user.fullName } : {}),
    preferredUsername: user.name,
    url: `${rootUrl}${user.name}`,
    icon: { type: 'Image', mediaType: 'image/png', url: avatarUrl(rootUrl, user) },
    inbox: `${id}/inbox`,
    outbox: `${id}/outbox`,
    publicKey: { id: `${id}#main-key`, owner: id, publicKeyPem },
  };
}
