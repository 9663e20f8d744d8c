// Files, commits and git objects of a repository (/repos/{owner}/{repo}/contents, raw, media, archive, commits,
// compare, git/…), statuses, branch protections and releases. Readers of code read; writers of code (signed in)
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

const missingBranch = { branch: 'no-such-branch' };

//                                         anon outsd member team owner admin pubOnly readOnly
export const REPO_CONTENT_ROWS: readonly MatrixRow[] = [
  { operation: 'repoGetContentsList', expected: codeReader(200) },
  { operation: 'repoGetContents', params: { filepath: 'missingRef' }, expected: codeReader(404) },
  { operation: 'repoGetRawFile', params: { filepath: 'missingRef' }, expected: codeReader(404) },
  { operation: 'repoGetRawFileOrLFS', params: { filepath: 'missingRef' }, expected: codeReader(404) },
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
];
