// Commits and git objects as Forgejo shows them (services/convert/git_commit.go ToCommit, ToFileCommitResponse;
// routers/api/v1/repo/git_ref.go, services/repository/files/tree.go).
import type { components } from '../../generated/api.d.ts';
import type { ChangedFile, CommitInfo } from '../infra/git/commits.ts';
import type { GitRef } from '../infra/git/refs.ts';
import type { TreeEntry } from '../infra/git/tree.ts';

export type ApiCommit = components['schemas']['Commit'];
export type ApiFileCommit = components['schemas']['FileCommitResponse'];
export type ApiReference = components['schemas']['Reference'];
export type ApiTree = components['schemas']['GitTreeResponse'];
export type ApiBlob = components['schemas']['GitBlobResponse'];
type ApiVerification = components['schemas']['PayloadCommitVerification'];

export interface RepoLinks {
  rootUrl: string;
  ownerName: string;
  name: string;
}

export const apiBase = (links: RepoLinks) => `${links.rootUrl}api/v1/repos/${links.ownerName}/${links.name}`;
const htmlBase = (links: RepoLinks) => `${links.rootUrl}${links.ownerName}/${links.name}`;

/**
 * Anvil does not verify signatures: every commit is reported unsigned, as Forgejo reports an unsigned one. Users
 * matching the author and committer are not looked up: `author` and `committer` stay absent (Forgejo: null).
 */
export const UNSIGNED: ApiVerification = {
  verified: false,
  reason: 'gpg.error.not_signed_commit',
  signature: '',
  payload: '',
};

const person = (who: CommitInfo['author']) => ({ name: who.name, email: who.email, date: who.date });

export function toCommit(commit: CommitInfo, links: RepoLinks, files?: ChangedFile[]): ApiCommit {
  const api = apiBase(links);
  const result: ApiCommit = {
    url: `${api}/git/commits/${commit.sha}`,
    sha: commit.sha,
    created: commit.committer.date,
    html_url: `${htmlBase(links)}/commit/${commit.sha}`,
    commit: {
      url: `${api}/git/commits/${commit.sha}`,
      author: person(commit.author),
      committer: person(commit.committer),
      message: commit.message,
      tree: { url: `${api}/git/trees/${commit.tree}`, sha: commit.tree, created: commit.committer.date },
      verification: UNSIGNED,
    },
    parents: commit.parents.map((sha) => ({ url: `${api}/git/commits/${sha}`, sha })),
  };
  if (files) {
    result.files = files.map((file) => ({ filename: file.filename, status: file.status }));
    const additions = files.reduce((sum, file) => sum + file.additions, 0);
    const deletions = files.reduce((sum, file) => sum + file.deletions, 0);
    result.stats = { total: additions + deletions, additions, deletions };
  }
  return result;
}

export function toFileCommit(commit: CommitInfo, links: RepoLinks): ApiFileCommit {
  const api = apiBase(links);
  return {
    url: `${api}/git/commits/${commit.sha}`,
    sha: commit.sha,
    created: commit.committer.date,
    html_url: `${htmlBase(links)}/commit/${commit.sha}`,
    author: person(commit.author),
    committer: person(commit.committer),
    parents: commit.parents.map((sha) => ({ url: `${api}/git/commits/${sha}`, sha })),
    message: commit.message,
    tree: { url: `${api}/git/trees/${commit.tree}`, sha: commit.tree },
  };
}

export function toReference(ref: GitRef, links: RepoLinks): ApiReference {
  const api = apiBase(links);
  const objectPath = ref.type === 'tag' ? 'tags' : ref.type === 'commit' ? 'commits' : `${ref.type}s`;
  return {
    ref: ref.ref,
    url: `${api}/git/${ref.ref.split('/').map(encodeURIComponent).join('/')}`,
    object: { type: ref.type, sha: ref.sha, url: `${api}/git/${objectPath}/${ref.sha}` },
  };
}

export function toTree(
  tree: { sha: string; entries: TreeEntry[]; total: number; truncated: boolean },
  page: number,
  links: RepoLinks,
): ApiTree {
  const api = apiBase(links);
  return {
    sha: tree.sha,
    url: `${api}/git/trees/${tree.sha}`,
    tree: tree.entries.map((entry) => ({
      path: entry.path,
      mode: entry.mode,
      type: entry.type,
      size: entry.size,
      sha: entry.sha,
      url: `${api}/git/${entry.type === 'tree' ? 'trees' : 'blobs'}/${entry.sha}`,
    })),
    truncated: tree.truncated,
    page,
    total_count: tree.total,
  };
}

export function toBlob(blob: { sha: string; bytes: Buffer }, links: RepoLinks): ApiBlob {
  return {
    content: blob.bytes.toString('base64'),
    encoding: 'base64',
    url: `${apiBase(links)}/git/blobs/${blob.sha}`,
    sha: blob.sha,
    size: blob.bytes.length,
  };
}
