import type { components } from '../../generated/api.d.ts';
import type { Repository, User } from '../db/prisma.ts';
import { opTypeName } from '../domain/activity.ts';
import type { FeedEntry } from '../services/org-feed.service.ts';
import { isoTime } from './time.ts';
import { toUser, type UserView } from './user.ts';

export type ApiActivity = components['schemas']['Activity'];
type ApiRepository = components['schemas']['Repository'];

/** The repository as a feed shows it: the identifying fields, with no permissions (Forgejo passes none). */
function feedRepository(repo: Repository & { owner: User }, view: UserView): ApiRepository {
  const fullName = `${repo.owner.name}/${repo.name}`;
  return {
    id: repo.id,
    name: repo.name,
    full_name: fullName,
    owner: toUser(repo.owner, view),
    description: repo.description,
    private: repo.isPrivate,
    fork: repo.isFork,
    template: repo.isTemplate,
    mirror: repo.isMirror,
    archived: repo.isArchived,
    empty: repo.isEmpty,
    html_url: `${view.rootUrl}${fullName}`,
    url: `${view.rootUrl}api/v1/repos/${fullName}`,
    clone_url: `${view.rootUrl}${fullName}.git`,
    link: '',
    website: repo.website,
    default_branch: repo.defaultBranch,
    avatar_url: '',
    stars_count: repo.numStars,
    forks_count: repo.numForks,
    watchers_count: repo.numWatches,
    open_issues_count: repo.numIssues - repo.numClosedIssues,
    created_at: isoTime(repo.createdAt),
    updated_at: isoTime(repo.updatedAt),
    permissions: { admin: false, push: false, pull: false },
  };
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

