import type { components } from '../../generated/api.d.ts';
import type { User } from '../db/prisma.ts';
import type { PublicKey } from '../db/public-key.repository.ts';
import { isoTime } from './time.ts';
import { toUser, type UserView } from './user.ts';

export type ApiPublicKey = components['schemas']['PublicKey'];

/** Forgejo's public key record; `url` points at the user-key API as upstream does (services/convert ToPublicKey). */
export function toPublicKey(key: PublicKey, owner: User, view: UserView): ApiPublicKey {
  return {
    id: key.id,
    key: key.content,
    url: `${view.rootUrl}api/v1/user/keys/${key.id}`,
    title: key.name,
    fingerprint: key.fingerprint,
    created_at: isoTime(key.createdAt),
    key_type: key.keyType,
    read_only: false,
    user: toUser(owner, view),
  };
}
