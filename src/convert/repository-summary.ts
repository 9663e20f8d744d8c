// A repository record for the team operations (team repository lists, activity feeds). The repositories
// module brings the full converter (units, trackers, merge settings); this one carries what the tables hold.
import type { components } from '../../generated/api.d.ts';
import type { Repository, User } from '../db/prisma.ts';
import { Visibility } from '../domain/access.ts';
import type { RepositoryPermission } from '../services/team.service.ts';
import { isoTime } from './time.ts';
import { toUser, type UserView } from './user.ts';

export type ApiRepository = components['schemas']['Repository'];

function topicsOf(repo: Repository): string[] {
  try {
    const topics: unknown = JSON.parse(repo.topics);
    return Array.isArray(topics) ? topics.filter((topic): topic is string => typeof topic === 'string') : [];
  } catch {
    return [];
  }
}

export function toRepositorySummary(repo: Repository, owner: User, permission: RepositoryPermission, view: UserView): ApiRepository {
  const htmlUrl = `${view.rootUrl}${owner.name}/${repo.name}`;
  const apiUrl = `${view.rootUrl}api/v1/repos/${owner.name}/${repo.name}`;
  return {
    id: repo.id,
    owner: toUser(owner, view),
    name: repo.name,
    full_name: `${owner.name}/${repo.name}`,
    description: repo.description,
    empty: repo.isEmpty,
    private: repo.isPrivate,
    fork: repo.isFork,
    template: repo.isTemplate,
    mirror: repo.isMirror,
    size: Number(repo.size / 1024n),
    language: '',
    languages_url: `${apiUrl}/languages`,
    html_url: htmlUrl,
    url: apiUrl,
    link: '',
    ssh_url: '',
    clone_url: `${htmlUrl}.git`,
    original_url: repo.originalUrl,
    website: repo.website,
    stars_count: repo.numStars,
    forks_count: repo.numForks,
    watchers_count: repo.numWatches,
    open_issues_count: repo.numIssues - repo.numClosedIssues,
    open_pr_counter: repo.numPulls - repo.numClosedPulls,
    release_counter: 0,
    default_branch: repo.defaultBranch,
    archived: repo.isArchived,
    created_at: isoTime(repo.createdAt),
    updated_at: isoTime(repo.updatedAt),
    archived_at: isoTime(repo.archivedAt),
    permissions: permission,
    avatar_url: '',
    internal: !repo.isPrivate && owner.visibility === Visibility.private,
    mirror_interval: '',
    topics: topicsOf(repo),
    object_format_name: 'sha1',
  };
}
