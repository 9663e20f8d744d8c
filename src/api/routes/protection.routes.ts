// Routes for commit statuses and branch protection rules (Forgejo: routers/api/v1/api.go, the /statuses,
// /commits/{ref}/status(es) and /branch_protections groups): readers of code read statuses, writers of code
// report them; repository admins manage protection rules.
import { repoAssignment } from '../assignment.ts';
import { mustNotBeArchived, reqRepoAdmin, reqRepoReader, reqRepoWriter, reqToken } from '../guards.ts';
import {
  repoCreateBranchProtection,
  repoDeleteBranchProtection,
  repoEditBranchProtection,
  repoGetBranchProtection,
  repoListBranchProtection,
} from '../handlers/repo/branch-protection.ts';
import {
  repoCreateStatus,
  repoGetCombinedStatusByRef,
  repoListStatuses,
  repoListStatusesByRef,
} from '../handlers/repo/status.ts';
import { route, type RouteGroup } from '../route.ts';
import { UnitType } from '../../domain/access/modes.ts';

export type ProtectionOperation =
  | 'repoCreateBranchProtection'
  | 'repoCreateStatus'
  | 'repoDeleteBranchProtection'
  | 'repoEditBranchProtection'
  | 'repoGetBranchProtection'
  | 'repoGetCombinedStatusByRef'
  | 'repoListBranchProtection'
  | 'repoListStatuses'
  | 'repoListStatusesByRef';

const codeReader = [repoAssignment(), reqRepoReader(UnitType.code)];
const repoAdmin = [repoAssignment(), reqToken(), reqRepoAdmin()];

export const protectionRoutes: RouteGroup<ProtectionOperation> = {
  repoCreateBranchProtection: route([...repoAdmin, mustNotBeArchived()], repoCreateBranchProtection),
  repoCreateStatus: route([...codeReader, reqToken(), reqRepoWriter(UnitType.code)], repoCreateStatus),
  repoDeleteBranchProtection: route(repoAdmin, repoDeleteBranchProtection),
  repoEditBranchProtection: route([...repoAdmin, mustNotBeArchived()], repoEditBranchProtection),
  repoGetBranchProtection: route(repoAdmin, repoGetBranchProtection),
  repoGetCombinedStatusByRef: route(codeReader, repoGetCombinedStatusByRef),
  repoListBranchProtection: route(repoAdmin, repoListBranchProtection),
  repoListStatuses: route(codeReader, repoListStatuses),
  repoListStatusesByRef: route(codeReader, repoListStatusesByRef),
};
