// Files, commits and git objects of a repository (/repos/{owner}/{repo}/contents, raw, media, archive, commits,
// compare, git/…), statuses, branch protections and releases with their attachments. Readers of code read; writers of code (signed in)
// write. The shared repositories have a default branch; the names in the paths name nothing (404 past the guards),
// and writes name a missing branch (404) so the repositories stay as they are.
import { uniqueName } from '../../helpers/factories.ts';
import type { ByOwner, Expected, MatrixRow } from './matrix.ts';

/** Statuses of a route for readers of code that answers `status` past the guards. */
export function codeReader(status: number): Expected {
  const s = status;
  const privateRepo: ByOwner['public'] = [404, 404, 404, s, s, s, 403, s];
  return {
    byRepo: {
      public: {
        public: [s, s, s, s, s, s, s, s],
        limited: [404, s, s, s, s, s, s, s],
        private: [404, 404, s, s, s, s, s, s],
      },
      private: { public: privateRepo, limited: privateRepo, private: privateRepo },
    },
  };
}

/** Statuses of a route for signed-in writers of code that answers `status` past the guards. */
export function codeWriter(status: number): Expected {
  const w = status;
  const privateRepo: ByOwner['public'] = [404, 404, 404, w, w, w, 403, 403];
  return {
    byRepo: {
      public: {
        public: [401, 403, 403, w, w, w, w, 403],
        limited: [404, 403, 403, w, w, w, w, 403],
        private: [404, 404, 403, w, w, w, w, 403],
      },
      private: { public: privateRepo, limited: privateRepo, private: privateRepo },
    },
  };
}

/** Statuses of a read for repository admins (signed in) that answers `status` past the guards. */
export function repoAdminReader(status: number): Expected {
  const s = status;
  const privateRepo: ByOwner['public'] = [404, 404, 404, 403, s, s, 403, s];
  return {
    byRepo: {
      public: {
        public: [401, 403, 403, 403, s, s, s, s],
        limited: [404, 403, 403, 403, s, s, s, s],
        private: [404, 404, 403, 403, s, s, s, s],
      },
      private: { public: privateRepo, limited: privateRepo, private: privateRepo },
    },
  };
}

/** Statuses of a write for repository admins (signed in) that answers `status` past the guards. */
export function repoAdminWriter(status: number): Expected {
  const s = status;
  const privateRepo: ByOwner['public'] = [404, 404, 404, 403, s, s, 403, 403];
  return {
    byRepo: {
      public: {
        public: [401, 403, 403, 403, s, s, s, 403],
        limited: [404, 403, 403, 403, s, s, s, 403],
        private: [404, 404, 403, 403, s, s, s, 403],
      },
      private: { public: privateRepo, limited: privateRepo, private: privateRepo },
    },
  };
}

/**
 * Statuses of a read of the releases unit answering `status` past the guards: the write team holds the code and
 * packages units only, so it reads a private repository's releases no more (403, reqRepoReader).
 */
export function releasesReader(status: number): Expected {
  const s = status;
  const privateRepo: ByOwner['public'] = [404, 404, 404, 403, s, s, 403, s];
  return {
    byRepo: {
      public: {
        public: [s, s, s, s, s, s, s, s],
        limited: [404, s, s, s, s, s, s, s],
        private: [404, 404, s, s, s, s, s, s],
      },
      private: { public: privateRepo, limited: privateRepo, private: privateRepo },
    },
  };
}

/** Writers of releases: the owner and site admins (the write team holds code and packages only). */
const releasesWriter = repoAdminWriter;

const missingBranch = { branch: 'no-such-branch' };

//                                         anon outsd member team owner admin pubOnly readOnly
export const REPO_CONTENT_ROWS: readonly MatrixRow[] = [
  { operation: 'repoGetContentsList', expected: codeReader(200) },
  { operation: 'repoGetContents', params: { filepath: 'missingRef' }, expected: codeReader(404) },
  { operation: 'repoGetRawFile', params: { filepath: 'missingRef' }, expected: codeReader(404) },
  { operation: 'repoGetRawFileOrLFS', params: { filepath: 'missingRef' }, expected: codeReader(404) },
  // The shared repositories have no .editorconfig.
  { operation: 'repoGetEditorConfig', params: { filepath: 'missingRef' }, expected: codeReader(404) },
  { operation: 'repoGetLanguages', expected: codeReader(200) },
  { operation: 'repoGetArchive', params: { archive: 'missingRef' }, expected: codeReader(404) },
  { operation: 'repoGetSingleCommit', params: { sha: 'missingRef' }, expected: codeReader(404) },
  { operation: 'repoGetAllCommits', expected: codeReader(200) },
  { operation: 'repoCompareDiff', params: { basehead: 'missingRef' }, expected: codeReader(404) },
  { operation: 'GetTree', params: { sha: 'missingRef' }, expected: codeReader(404) },
  { operation: 'GetBlob', params: { sha: 'missingRef' }, expected: codeReader(404) },
  { operation: 'repoListAllGitRefs', expected: codeReader(200) },
  { operation: 'repoListGitRefs', params: { ref: 'missingRef' }, expected: codeReader(404) },
  {
    operation: 'repoCreateFile',
    params: { filepath: 'missingRef' },
    body: { ...missingBranch, content: 'eA==' },
    expected: codeWriter(404),
  },
  {
    operation: 'repoUpdateFile',
    params: { filepath: 'missingRef' },
    body: { ...missingBranch, content: 'eA==', sha: 'abc' },
    expected: codeWriter(404),
  },
  {
    operation: 'repoDeleteFile',
    params: { filepath: 'missingRef' },
    body: { ...missingBranch, sha: 'abc' },
    expected: codeWriter(404),
  },
  {
    operation: 'repoChangeFiles',
    body: { ...missingBranch, files: [{ operation: 'create', path: 'x', content: 'eA==' }] },
    expected: codeWriter(404),
  },
  // Statuses of a commit that does not exist: none to list, 404 to report one.
  {
    operation: 'repoCreateStatus',
    params: { sha: 'missingRef' },
    body: { state: 'success' },
    expected: codeWriter(404),
  },
  { operation: 'repoListStatuses', params: { sha: 'missingRef' }, expected: codeReader(200) },
  { operation: 'repoListStatusesByRef', params: { ref: 'missingRef' }, expected: codeReader(200) },
  { operation: 'repoGetCombinedStatusByRef', params: { ref: 'missingRef' }, expected: codeReader(200) },
  // Branch protection rules: repository admins only; a fresh rule name per creation.
  { operation: 'repoListBranchProtection', expected: repoAdminReader(200) },
  { operation: 'repoGetBranchProtection', params: { name: 'missingRef' }, expected: repoAdminReader(404) },
  {
    operation: 'repoCreateBranchProtection',
    body: () => ({ rule_name: uniqueName('rule') }),
    expected: repoAdminWriter(201),
  },
  { operation: 'repoEditBranchProtection', params: { name: 'missingRef' }, body: {}, expected: repoAdminWriter(404) },
  { operation: 'repoDeleteBranchProtection', params: { name: 'missingRef' }, expected: repoAdminWriter(404) },
  // Releases: the shared repositories have none (a creation names a missing target, 404), so release `1` is missing.
  { operation: 'repoListReleases', expected: releasesReader(200) },
  { operation: 'repoGetLatestRelease', expected: releasesReader(404) },
  { operation: 'repoGetRelease', params: { id: 'issue' }, expected: releasesReader(404) },
  { operation: 'repoGetReleaseByTag', expected: releasesReader(404) },
  { operation: 'repoListReleaseAttachments', params: { id: 'issue' }, expected: releasesReader(404) },
  {
    operation: 'repoGetReleaseAttachment',
    params: { id: 'issue', attachment_id: 'issue' },
    expected: releasesReader(404),
  },
  { operation: 'repoDownloadReleaseAttachment', params: { tag: 'missingRef' }, expected: releasesReader(404) },
  {
    operation: 'repoCreateRelease',
    body: () => ({ tag_name: uniqueName('tag'), target_commitish: 'no-such-branch' }),
    expected: releasesWriter(404),
  },
  { operation: 'repoEditRelease', params: { id: 'issue' }, body: {}, expected: releasesWriter(404) },
  { operation: 'repoDeleteRelease', params: { id: 'issue' }, expected: releasesWriter(404) },
  { operation: 'repoDeleteReleaseByTag', expected: releasesWriter(404) },
  {
    operation: 'repoCreateReleaseAttachment',
    params: { id: 'issue' },
    query: { name: 'file.bin' },
    body: 'bytes',
    expected: releasesWriter(404),
  },
  {
    operation: 'repoEditReleaseAttachment',
    params: { id: 'issue', attachment_id: 'issue' },
    body: { name: 'renamed.bin' },
    expected: releasesWriter(404),
  },
  {
    operation: 'repoDeleteReleaseAttachment',
    params: { id: 'issue', attachment_id: 'issue' },
    expected: releasesWriter(404),
  },
];
