// Forgejo's ChangedFile, Commit and PullReview records of a pull request (services/convert/pull.go, git_commit.go,
// pull_review.go), from what git and the review rows hold.
import type { components } from '../../generated/api.d.ts';
import type { Repository, User } from '../db/prisma.ts';
import type { ReviewRow } from '../db/review.repository.ts';
import type { ChangedFileStat, CommitInfo } from '../infra/git/pull-diff.ts';
import { reviewState } from '../domain/review.ts';
import { repoApiUrl } from './repository.ts';
import { isoTime } from './time.ts';
import { toUser, type UserView } from './user.ts';

type Repo = Pick<Repository, 'ownerName' | 'name'>;

const webUrl = (rootUrl: string, repo: Repo) => `${rootUrl}${repo.ownerName}/${repo.name}`;

export function toChangedFile(
  file: ChangedFileStat,
  repo: Repo,
  headSha: string,
  rootUrl: string,
): components['schemas']['ChangedFile'] {
  const path = file.filename.split('/').map(encodeURIComponent).join('/');
  return {
    filename: file.filename,
    ...(file.previousFilename ? { previous_filename: file.previousFilename } : {}),
    status: file.status,
    additions: file.additions,
    deletions: file.deletions,
    changes: file.additions + file.deletions,
    html_url: `${webUrl(rootUrl, repo)}/src/commit/${headSha}/${path}`,
    contents_url: `${repoApiUrl(rootUrl, repo)}/contents/${path}?ref=${headSha}`,
    raw_url: `${webUrl(rootUrl, repo)}/raw/commit/${headSha}/${path}`,
  };
}

/** `users` maps commit e-mail addresses to accounts (shown as author and committer when known). */
export function toCommit(
  commit: CommitInfo,
  repo: Repo,
  users: ReadonlyMap<string, User>,
  view: UserView,
): components['schemas']['Commit'] {
  const api = repoApiUrl(view.rootUrl, repo);
  const author = users.get(commit.authorEmail.toLowerCase());
  const committer = users.get(commit.committerEmail.toLowerCase());
  return {
    url: `${api}/git/commits/${commit.sha}`,
    sha: commit.sha,
    created: commit.committerDate,
    html_url: `${webUrl(view.rootUrl, repo)}/commit/${commit.sha}`,
    commit: {
      url: `${api}/git/commits/${commit.sha}`,
      author: { name: commit.authorName, email: commit.authorEmail, date: commit.authorDate },
      committer: { name: commit.committerName, email: commit.committerEmail, date: commit.committerDate },
      message: commit.message,
      tree: { url: `${api}/git/trees/${commit.tree}`, sha: commit.tree, created: commit.committerDate },
      verification: { verified: false, reason: 'gpg.error.not_signed_commit', signature: '', payload: '' },
    },
    ...(author ? { author: toUser(author, view) } : {}),
    ...(committer ? { committer: toUser(committer, view) } : {}),
    parents: commit.parents.map((sha) => ({ url: `${api}/git/commits/${sha}`, sha, created: commit.committerDate })),
  } as components['schemas']['Commit'];
}

export function toPullReview(
  review: ReviewRow,
  reviewer: User | null,
  pullHtmlUrl: string,
  view: UserView,
): components['schemas']['PullReview'] {
  return {
    id: review.id,
    ...(reviewer ? { user: toUser(reviewer, view) } : {}),
    state: reviewState(review.type),
    body: review.content,
    commit_id: review.commitId,
    stale: false,
    official: review.official,
    dismissed: false,
    comments_count: 0,
    submitted_at: isoTime(review.createdAt),
    updated_at: isoTime(review.updatedAt),
    html_url: `${pullHtmlUrl}#issuecomment-${review.id}`,
    pull_request_url: pullHtmlUrl,
  } as components['schemas']['PullReview'];
}
