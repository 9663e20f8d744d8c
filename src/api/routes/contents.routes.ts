// Routes for a repository's files, commits and git objects (Forgejo: routers/api/v1/api.go, the /contents, /raw,
// /media, /archive, /editorconfig, /languages, /commits, /compare and /git groups): readers of code read; writers of code, signed in, write files
// into a repository that is not archived and whose owner is within quota.
import { repoAssignment } from '../assignment.ts';
import { mustNotBeArchived, reqRepoReader, reqRepoWriter, reqToken } from '../guards.ts';
import {
  GetBlob,
  GetTree,
  repoCompareDiff,
  repoGetAllCommits,
  repoGetSingleCommit,
  repoListAllGitRefs,
  repoListGitRefs,
} from '../handlers/repo/commits.ts';
import {
  repoChangeFiles,
  repoCreateFile,
  repoDeleteFile,
  repoGetArchive,
  repoGetContents,
  repoGetContentsList,
  repoGetEditorConfig,
  repoGetLanguages,
  repoGetRawFile,
  repoGetRawFileOrLFS,
  repoUpdateFile,
} from '../handlers/repo/contents.ts';
import { enforceQuota } from '../quota-guard.ts';
import { route, type RouteGroup } from '../route.ts';
import { UnitType } from '../../domain/access/modes.ts';

export type ContentsOperation =
  | 'GetBlob'
  | 'GetTree'
  | 'repoChangeFiles'
  | 'repoCompareDiff'
  | 'repoCreateFile'
  | 'repoDeleteFile'
  | 'repoGetAllCommits'
  | 'repoGetArchive'
  | 'repoGetContents'
  | 'repoGetContentsList'
  | 'repoGetEditorConfig'
  | 'repoGetLanguages'
  | 'repoGetRawFile'
  | 'repoGetRawFileOrLFS'
  | 'repoGetSingleCommit'
  | 'repoListAllGitRefs'
  | 'repoListGitRefs'
  | 'repoUpdateFile';

const codeReader = [repoAssignment(), reqRepoReader(UnitType.code)];
const fileWriter = [
  ...codeReader,
  reqToken(),
  reqRepoWriter(UnitType.code),
  mustNotBeArchived(),
  enforceQuota('size:repos:all', 'repo'),
];

export const contentsRoutes: RouteGroup<ContentsOperation> = {
  GetBlob: route(codeReader, GetBlob),
  GetTree: route(codeReader, GetTree),
  repoChangeFiles: route(fileWriter, repoChangeFiles),
  repoCompareDiff: route(codeReader, repoCompareDiff),
  repoCreateFile: route(fileWriter, repoCreateFile),
  repoDeleteFile: route(fileWriter, repoDeleteFile),
  repoGetAllCommits: route(codeReader, repoGetAllCommits),
  repoGetArchive: route(codeReader, repoGetArchive),
  repoGetContents: route(codeReader, repoGetContents),
  repoGetContentsList: route(codeReader, repoGetContentsList),
  repoGetEditorConfig: route(codeReader, repoGetEditorConfig),
  repoGetLanguages: route(codeReader, repoGetLanguages),
  repoGetRawFile: route(codeReader, repoGetRawFile),
  repoGetRawFileOrLFS: route(codeReader, repoGetRawFileOrLFS),
  repoGetSingleCommit: route(codeReader, repoGetSingleCommit),
  repoListAllGitRefs: route(codeReader, repoListAllGitRefs),
  repoListGitRefs: route(codeReader, repoListGitRefs),
  repoUpdateFile: route(fileWriter, repoUpdateFile),
};
