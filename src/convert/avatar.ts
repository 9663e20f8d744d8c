// Avatar links point at files Anvil serves under /avatars.
import type { User } from '../db/prisma.ts';

export function avatarUrl(rootUrl: string, owner: Pick<User, 'avatar' | 'id'>): string {
  return owner.avatar ? `${rootUrl}avatars/${owner.avatar}` : `${rootUrl}avatars/default/${owner.id}`;
}
