// Forgejo's activity record (services/convert/activity.go ToActivity), without the comment body.
import type { components } from '../../generated/api.d.ts';
import { opTypeName } from '../domain/activity.ts';
import type { TeamActivity } from '../services/team.service.ts';
import { toRepositorySummary } from './repository-summary.ts';
import { isoTime } from './time.ts';
import { toUser, type UserView } from './user.ts';

export type ApiActivity = components['schemas']['Activity'];

export function toActivity(row: TeamActivity, view: UserView): ApiActivity {
  const { action } = row;
  return {
    id: action.id,
    user_id: action.userId,
    op_type: opTypeName(action.opType),
    act_user_id: action.actUserId,
    act_user: toUser(row.actor, view),
    repo_id: action.repoId,
    repo: toRepositorySummary(row.repo, row.repoOwner, row.permission, view),
    comment_id: action.commentId,
    ref_name: action.refName,
    is_private: action.isPrivate,
    content: action.content,
    created: isoTime(action.createdAt),
  };
}
