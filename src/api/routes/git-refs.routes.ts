// Routes for a repository's branches and tags (Forgejo: routers/api/v1/api.go, the /branches and /tags groups):
// readers of code list and get; writers of code, signed in, create and delete on a repository not archived.
import { repoAssignment } from '../assignment.ts';
import { mustNotBeArchived, reqRepoReader, reqRepoWriter, reqToken } from '../guards.ts';
import { repoCreateBranch, repoDeleteBranch, repoGetBranch, repoListBranches } from '../handlers/repo/branch.ts';
import { repoCreateTag, repoDeleteTag, repoGetTag, repoListTags } from '../handlers/repo/tag.ts';
import { route, type RouteGroup } from '../route.ts';
import { UnitType } from '../../domain/access/modes.ts';

export type GitRefsOperation =
  | 'repoCreateBranch'
  | 'repoCreateTag'
  | 'repoDeleteBranch'
  | 'repoDeleteTag'
  | 'repoGetBranch'
  | 'repoGetTag'
  | 'repoListBranches'
  | 'repoListTags';

const codeReader = [repoAssignment(), reqRepoReader(UnitType.code)];
const codeWriter = [...codeReader, reqToken(), reqRepoWriter(UnitType.code), mustNotBeArchived()];

export const gitRefsRoutes: RouteGroup<GitRefsOperation> = {
  repoCreateBranch: route(codeWriter, repoCreateBranch),
  repoCreateTag: route(codeWriter, repoCreateTag),
  repoDeleteBranch: route(codeWriter, repoDeleteBranch),
  repoDeleteTag: route(codeWriter, repoDeleteTag),
  repoGetBranch: route(codeReader, repoGetBranch),
  repoGetTag: route(codeReader, repoGetTag),
  repoListBranches: route(codeReader, repoListBranches),
  repoListTags: route(codeReader, repoListTags),
};
