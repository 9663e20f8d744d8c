// Routes for repos. An operation bound to notImplemented() answers 501 until it is built.
import { notImplemented, type RouteGroup } from '../route.ts';

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
  adminAdoptRepository: notImplemented(),
  adminCreateRepo: notImplemented(),
  adminDeleteUnadoptedRepository: notImplemented(),
  adminUnadoptedList: notImplemented(),
  createCurrentUserRepo: notImplemented(),
  createOrgRepo: notImplemented(),
  createOrgRepoDeprecated: notImplemented(),
  gitInfoRefs: notImplemented(),
  gitReceivePack: notImplemented(),
  gitUploadPack: notImplemented(),
  orgListRepos: notImplemented(),
  repoDelete: notImplemented(),
  repoEdit: notImplemented(),
  repoGet: notImplemented(),
  repoMigrate: notImplemented(),
  repoSearch: notImplemented(),
  userCurrentDeleteSubscription: notImplemented(),
  userCurrentPutSubscription: notImplemented(),
};
