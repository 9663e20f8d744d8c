// Forgejo's Reaction record (services/convert/issue.go ToAPIReactions... per reaction).
import type { components } from '../../generated/api.d.ts';
import { ghostUser } from '../db/ghost-user.ts';
import type { User } from '../db/prisma.ts';
import type { ReactionRow } from '../db/reaction.repository.ts';
import { isoTime } from './time.ts';
import { toUser, type UserView } from './user.ts';

export function toReaction(
  reaction: ReactionRow,
  user: User | null,
  view: UserView,
): components['schemas']['Reaction'] {
  return { user: toUser(user ?? ghostUser(), view), content: reaction.type, created_at: isoTime(reaction.createdAt) };
}
