// Routes for repositories (Forgejo: routers/api/v1/api.go, the /repos/{username}/{reponame} group) and git smart HTTP.
import { orgAssignment, repoAssignment, repoIdAssignment, userAssignment } from '../assignment.ts';
import {
  reqAnyRepoReader,
  reqGitAccess,
  reqOrgRepoCreator,
  reqRepoAdmin,
  reqRepoOwner,
  reqRepoReader,
  reqSiteAdmin,
  reqToken,
} from '../guards.ts';
import { enforceQuota } from '../quota-guard.ts';
import { adminAdoptRepository, adminDeleteUnadoptedRepository, adminUnadoptedList } from '../handlers/admin/adopt.ts';
import { gitInfoRefs, gitReceivePack, gitUploadPack } from '../handlers/repo/git.ts';
import {
  adminCreateRepo,
  createCurrentUserRepo,
  createOrgRepo,
  createOrgRepoDeprecated,
  orgListRepos,
  repoDelete,
  repoEdit,
  repoGet,
  repoGetByID,
  repoMigrate,
  repoSearch,
  userCurrentDeleteSubscription,
  userCurrentPutSubscription,
} from '../handlers/repo/repo.ts';
import { repoListStargazers, repoListSubscribers } from '../handlers/repo/watchers.ts';
import { repoListActivityFeeds } from '../handlers/repo/feed.ts';
import * as team from '../handlers/repo/team.ts';
import { repoGetIssueConfig, repoValidateIssueConfig } from '../handlers/repo/issue-config.ts';
import { UnitType } from '../../domain/access/modes.ts';
import { repoGetAssignees, repoGetReviewers } from '../handlers/repo/candidates.ts';
import { route, type RouteGroup } from '../route.ts';

export type ReposOperation =
  | 'adminAdoptRepository'
  | 'adminCreateRepo'
  | 'adminDeleteUnadoptedRepository'
  | 'adminUnadoptedList'
  | 'createCurrentUserRepo'
  | 'createOrgRepo'
  | 'createOrgRepoDeprecated'
  | 'gitInfoRefs'
  | 'gitReceivePack'
  | 'gitUploadPack'
  | 'orgListRepos'
  | 'repoDelete'
  | 'repoEdit'
  | 'repoGet'
  | 'repoGetByID'
  | 'repoListActivityFeeds'
  | 'repoListTeams'
  | 'repoGetIssueConfig'
  | 'repoValidateIssueConfig'
  | 'repoGetAssignees'
  | 'repoGetReviewers'
  | 'repoCheckTeam'
  | 'repoAddTeam'
  | 'repoDeleteTeam'
  | 'repoListStargazers'
  | 'repoListSubscribers'
  | 'repoMigrate'
  | 'repoSearch'
  | 'userCurrentDeleteSubscription'
  | 'userCurrentPutSubscription';

const git = [repoAssignment({ git: true }), reqGitAccess()];

export const reposRoutes: RouteGroup<ReposOperation> = {
  adminAdoptRepository: route([reqSiteAdmin()], adminAdoptRepository),
  adminCreateRepo: route([reqSiteAdmin(), userAssignment()], adminCreateRepo),
  adminDeleteUnadoptedRepository: route([reqSiteAdmin()], adminDeleteUnadoptedRepository),
  adminUnadoptedList: route([reqSiteAdmin()], adminUnadoptedList),
  createCurrentUserRepo: route([reqToken(), enforceQuota('size:repos:all', 'doer')], createCurrentUserRepo),
  createOrgRepo: route(
    [orgAssignment(), reqToken(), enforceQuota('size:repos:all', 'org'), reqOrgRepoCreator()],
    createOrgRepo,
  ),
  createOrgRepoDeprecated: route(
    [reqToken(), orgAssignment({ missing: 'invalid' }), reqOrgRepoCreator()],
    createOrgRepoDeprecated,
  ),
  gitInfoRefs: route(git, gitInfoRefs),
  gitReceivePack: route(git, gitReceivePack),
  gitUploadPack: route(git, gitUploadPack),
  orgListRepos: route([orgAssignment()], orgListRepos),
  repoDelete: route([repoAssignment(), reqToken(), reqRepoOwner()], repoDelete),
  repoEdit: route([repoAssignment(), reqToken(), reqRepoAdmin()], repoEdit),
  repoGet: route([repoAssignment()], repoGet),
  repoGetByID: route([repoIdAssignment()], repoGetByID),
  repoListActivityFeeds: route([repoAssignment()], repoListActivityFeeds),
  repoGetAssignees: route([repoAssignment(), reqToken(), reqAnyRepoReader()], repoGetAssignees),
  repoGetReviewers: route([repoAssignment(), reqToken(), reqAnyRepoReader()], repoGetReviewers),
  repoGetIssueConfig: route([repoAssignment(), reqRepoReader(UnitType.code)], repoGetIssueConfig),
  repoValidateIssueConfig: route([repoAssignment(), reqRepoReader(UnitType.code)], repoValidateIssueConfig),
  repoListTeams: route([repoAssignment(), reqToken(), reqAnyRepoReader()], team.repoListTeams),
  repoCheckTeam: route([repoAssignment(), reqToken(), reqAnyRepoReader()], team.repoCheckTeam),
  repoAddTeam: route([repoAssignment(), reqToken(), reqRepoAdmin()], team.repoAddTeam),
  repoDeleteTeam: route([repoAssignment(), reqToken(), reqRepoAdmin()], team.repoDeleteTeam),
  repoListStargazers: route([repoAssignment()], repoListStargazers),
  repoListSubscribers: route([repoAssignment()], repoListSubscribers),
  repoMigrate: route([reqToken()], repoMigrate),
  repoSearch: route([], repoSearch),
  userCurrentDeleteSubscription: route([repoAssignment(), reqToken()], userCurrentDeleteSubscription),
  userCurrentPutSubscription: route([repoAssignment(), reqToken()], userCurrentPutSubscription),
};
