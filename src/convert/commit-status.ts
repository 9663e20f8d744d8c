// Commit statuses as Forgejo shows them (services/convert/status.go ToCommitStatus, ToCombinedStatus).
import type { components } from '../../generated/api.d.ts';
import type { User } from '../db/entities.ts';
import type { CommitStatusRow } from '../db/commit-status.repository.ts';
import { apiBase, type RepoLinks } from './commit.ts';
import { toUser, type UserView } from './user.ts';

export type ApiCommitStatus = components['schemas']['CommitStatus'];
export type ApiCombinedStatus = components['schemas']['CombinedStatus'];

export function toCommitStatus(
  row: CommitStatusRow,
  creator: User | undefined,
  links: RepoLinks,
  view: UserView,
): ApiCommitStatus {
  const status: ApiCommitStatus = {
    id: row.id,
    status: row.state,
    target_url: row.targetUrl,
    description: row.description,
    url: `${apiBase(links)}/statuses/${row.sha}`,
    context: row.context,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
  if (creator) status.creator = toUser(creator, view);
  return status;
}

export function toCombinedStatus(
  combined: { sha: string; state: string; statuses: ApiCommitStatus[]; total: number },
  repository: components['schemas']['Repository'],
  links: RepoLinks,
): ApiCombinedStatus {
  const api = apiBase(links);
  return {
    state: combined.state,
    sha: combined.sha,
    total_count: combined.total,
    statuses: combined.statuses,
    repository,
    commit_url: `${api}/commits/${combined.sha}`,
    url: `${api}/commits/${combined.sha}/status`,
  };
}
