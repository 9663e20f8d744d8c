// Contents API shapes (Forgejo: services/repository/files/content.go GetContents, file.go GetFileResponseFromCommit).
import type { components } from '../../generated/api.d.ts';
import type { ContentEntry, ContentRef } from '../domain/repo-content.ts';
import type { CommitInfo } from '../infra/git/commits.ts';
import { apiBase, type RepoLinks, toFileCommit, UNSIGNED } from './commit.ts';

export type ApiContents = components['schemas']['ContentsResponse'];
export type ApiFileResponse = components['schemas']['FileResponse'];
export type ApiFilesResponse = components['schemas']['FilesResponse'];
export type ApiFileDeleteResponse = components['schemas']['FileDeleteResponse'];

const escapePath = (path: string) => path.split('/').map(encodeURIComponent).join('/');

export function toContents(entry: ContentEntry, ref: ContentRef, links: RepoLinks): ApiContents {
  const api = apiBase(links);
  const html = `${links.rootUrl}${links.ownerName}/${links.name}`;
  const self = `${api}/contents/${escapePath(entry.path)}?ref=${encodeURIComponent(ref.name)}`;
  const gitUrl = `${api}/git/${entry.type === 'dir' ? 'trees' : 'blobs'}/${entry.sha}`;
  const htmlUrl = `${html}/src/${ref.kind}/${escapePath(ref.name)}/${escapePath(entry.path)}`;
  const contents: ApiContents = {
    name: entry.name,
    path: entry.path,
    sha: entry.sha,
    last_commit_sha: entry.lastCommitSha,
    type: entry.type,
    size: entry.size,
    url: self,
    html_url: htmlUrl,
    git_url: gitUrl,
    _links: { self, git: gitUrl, html: htmlUrl },
  };
  if (entry.type === 'file')
    contents.download_url = `${html}/raw/${ref.kind}/${escapePath(ref.name)}/${escapePath(entry.path)}`;
  if (entry.content !== undefined) {
    contents.content = entry.content;
    contents.encoding = 'base64';
  }
  if (entry.target !== undefined) contents.target = entry.target;
  return contents;
}

export function toFileResponse(
  commit: CommitInfo,
  entry: ContentEntry | null,
  branch: string,
  links: RepoLinks,
): ApiFileResponse {
  const response: ApiFileResponse = { commit: toFileCommit(commit, links), verification: UNSIGNED };
  if (entry) response.content = toContents(entry, { name: branch, kind: 'branch' }, links);
  return response;
}

export function toFilesResponse(
  commit: CommitInfo,
  entries: (ContentEntry | null)[],
  branch: string,
  links: RepoLinks,
): ApiFilesResponse {
  return {
    commit: toFileCommit(commit, links),
    // Forgejo lists null for a deleted file; the contract's items are objects, so a deletion shows as an empty one.
    files: entries.map((entry) => (entry ? toContents(entry, { name: branch, kind: 'branch' }, links) : {})),
    verification: UNSIGNED,
  };
}

export function toFileDeleteResponse(commit: CommitInfo, links: RepoLinks): ApiFileDeleteResponse {
  return { commit: toFileCommit(commit, links), verification: UNSIGNED };
}
