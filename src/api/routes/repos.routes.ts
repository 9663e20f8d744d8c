// Routes for repos. An operation bound to notImplemented() answers 501 until it is built.
import { reqSiteAdmin, reqToken } from '../guards.ts';
import { adminAdoptRepository, adminDeleteUnadoptedRepository, adminUnadoptedList } from '../handlers/admin/adopt.ts';
import { gitInfoRefs, gitReceivePack, gitUploadPack } from '../handlers/repo/git.ts';
import {
  adminCreateRepo, createCurrentUserRepo, createOrgRepo, createOrgRepoDeprecated, orgListRepos, repoDelete, repoEdit, repoGet,
  repoMigrate, repoSearch, userCurrentDeleteSubscription, userCurrentPutSubscription,
} from '../handlers/repo/repo.ts';
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
  | 'repoMigrate'
  | 'repoSearch'
  | 'userCurrentDeleteSubscription'
  | 'userCurrentPutSubscription';

export const reposRoutes: RouteGroup<ReposOperation> = {
  adminAdoptRepository: route([reqSiteAdmin()], adminAdoptRepository),
  adminCreateRepo: route([reqSiteAdmin()], adminCreateRepo),
  adminDeleteUnadoptedRepository: route([reqSiteAdmin()], adminDeleteUnadoptedRepository),
  adminUnadoptedList: route([reqSiteAdmin()], adminUnadoptedList),
  createCurrentUserRepo: route([reqToken()], createCurrentUserRepo),
  createOrgRepo: route([reqToken()], createOrgRepo),
  createOrgRepoDeprecated: route([reqToken()], createOrgRepoDeprecated),
  gitInfoRefs: route([], gitInfoRefs),
  gitReceivePack: route([], gitReceivePack),
  gitUploadPack: route([], gitUploadPack),
  orgListRepos: route([], orgListRepos),
  repoDelete: route([reqToken()], repoDelete),
  repoEdit: route([reqToken()], repoEdit),
  repoGet: route([], repoGet),
  repoMigrate: route([reqToken()], repoMigrate),
  repoSearch: route([], repoSearch),
  userCurrentDeleteSubscription: route([reqToken()], userCurrentDeleteSubscription),
  userCurrentPutSubscription: route([reqToken()], userCurrentPutSubscription),
};
