import type { components } from '../../generated/api.d.ts';
import { AccessMode } from '../domain/access/modes.ts';
import { opTypeName } from '../domain/activity.ts';
import type { FeedEntry } from '../db/org-feed.repository.ts';
import type { RepositoryRecordDetails } from '../db/repository-details.ts';
import { type ApiRepository, toRepository } from './repository.ts';
import { isoTime } from './time.ts';
import { toUser, type UserView } from './user.ts';

export type ApiActivity = components['schemas']['Activity'];

/** Forgejo shows a feed's repository with no permission for anyone (services/convert ToActivity). */
function feedRepository(details: RepositoryRecordDetails, view: UserView): ApiRepository {
  const permission = { mode: AccessMode.none, unitModes: null, units: details.repo.units.map((unit) => unit.type) };
  return toRepository({ ...details, permission }, view);
}

export function toActivity(entry: FeedEntry, view: UserView): ApiActivity {
  const { action } = entry;
  return {
    id: action.id,
    user_id: action.userId,
    op_type: opTypeName(action.opType),
    act_user_id: action.actUserId,
    ...(entry.actUser ? { act_user: toUser(entry.actUser, view) } : {}),
    repo_id: action.repoId,
    ...(entry.repo ? { repo: feedRepository(entry.repo, view) } : {}),
    comment_id: action.commentId,
    ref_name: action.refName,
    is_private: action.isPrivate,
    content: action.content,
    created: isoTime(action.createdAt),
  };
}
