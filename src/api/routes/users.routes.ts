// Routes for users, their tokens and their administration (Forgejo: routers/api/v1/api.go).
import { repoAssignment, userAssignment } from '../assignment.ts';
import { reqBasicAuth, reqSelfOrAdmin, reqSiteAdmin, reqToken } from '../guards.ts';
import { adminGetAllEmails, adminSearchEmails } from '../handlers/admin/email.ts';
import { adminCreatePublicKey, adminDeleteUserPublicKey } from '../handlers/admin/public-key.ts';
import {
  adminCreateUser,
  adminDeleteUser,
  adminEditUser,
  adminRenameUser,
  adminSearchUsers,
} from '../handlers/admin/user.ts';
import { userCreateToken, userDeleteAccessToken, userGetTokens } from '../handlers/user/token.ts';
import { userAddEmail, userDeleteEmail, userListEmails } from '../handlers/user/email.ts';
import * as avatar from '../handlers/user/avatar.ts';
import { userGetHeatmapData, userListActivityFeeds } from '../handlers/user/feed.ts';
import { getUserSettings, updateUserSettings } from '../handlers/user/settings.ts';
import * as follower from '../handlers/user/follower.ts';
import {
  userCurrentDeleteKey,
  userCurrentGetKey,
  userCurrentListKeys,
  userCurrentPostKey,
  userListKeys,
} from '../handlers/user/key.ts';
import { userCurrentListRepos, userListRepos } from '../handlers/user/repo.ts';
import {
  userCurrentCheckStarring,
  userCurrentDeleteStar,
  userCurrentListStarred,
  userCurrentPutStar,
  userListStarred,
} from '../handlers/user/star.ts';
import { userGet, userGetCurrent, userSearch } from '../handlers/user/user.ts';
import { userCurrentListSubscriptions, userListSubscriptions } from '../handlers/user/watch.ts';
import { route, type RouteGroup } from '../route.ts';

export type UsersOperation =
  | 'adminCreatePublicKey'
  | 'adminCreateUser'
  | 'adminDeleteUser'
  | 'adminDeleteUserPublicKey'
  | 'adminEditUser'
  | 'adminGetAllEmails'
  | 'adminRenameUser'
  | 'adminSearchEmails'
  | 'adminSearchUsers'
  | 'userAddEmail'
  | 'userCreateToken'
  | 'userCurrentCheckStarring'
  | 'userCurrentDeleteKey'
  | 'userCurrentDeleteStar'
  | 'userCurrentListKeys'
  | 'userCurrentListRepos'
  | 'userCurrentListStarred'
  | 'userCurrentListSubscriptions'
  | 'userCurrentPostKey'
  | 'userCurrentPutStar'
  | 'userDeleteAccessToken'
  | 'userDeleteEmail'
  | 'userGet'
  | 'userGetCurrent'
  | 'userGetTokens'
  | 'userListEmails'
  | 'userListRepos'
  | 'userListStarred'
  | 'userListSubscriptions'
  | 'userSearch'
  | 'userCurrentListFollowers'
  | 'userCurrentListFollowing'
  | 'userCurrentCheckFollowing'
  | 'userCurrentPutFollow'
  | 'userCurrentDeleteFollow'
  | 'userListFollowers'
  | 'userListFollowing'
  | 'userCheckFollowing'
  | 'userListKeys'
  | 'userCurrentGetKey'
  | 'userUpdateAvatar'
  | 'userDeleteAvatar'
  | 'userListActivityFeeds'
  | 'userGetHeatmapData'
  | 'getUserSettings'
  | 'updateUserSettings';

/** `/admin/users/{username}/…`: a site admin, then the user (renamed names redirect). */
const adminOnUser = [reqSiteAdmin(), userAssignment()];

/**
 * `/users/{username}/tokens`: the user themself or a site admin, signed in with the password (Forgejo:
 * reqSelfOrAdmin, reqBasicOrRevProxyAuth on the whole group), so no token lists, mints or removes tokens.
 */
const tokensOf = [userAssignment('username', { individualOnly: true }), reqToken(), reqSelfOrAdmin(), reqBasicAuth()];

/** `/user/starred/{owner}/{repo}`: a repository the caller sees (404 first), then sign-in. */
const starOf = [repoAssignment(), reqToken()];

/** `/user/following/{username}`: sign-in first (the whole /user group), then a user the caller sees. */
const followOf = [reqToken(), userAssignment()];

export const usersRoutes: RouteGroup<UsersOperation> = {
  adminCreatePublicKey: route(adminOnUser, adminCreatePublicKey),
  adminCreateUser: route([reqSiteAdmin()], adminCreateUser),
  adminDeleteUser: route(adminOnUser, adminDeleteUser),
  adminDeleteUserPublicKey: route(adminOnUser, adminDeleteUserPublicKey),
  adminEditUser: route(adminOnUser, adminEditUser),
  adminGetAllEmails: route([reqSiteAdmin()], adminGetAllEmails),
  adminRenameUser: route(adminOnUser, adminRenameUser),
  adminSearchEmails: route([reqSiteAdmin()], adminSearchEmails),
  adminSearchUsers: route([reqSiteAdmin()], adminSearchUsers),
  userAddEmail: route([reqToken()], userAddEmail),
  userCreateToken: route(tokensOf, userCreateToken),
  userCurrentCheckStarring: route(starOf, userCurrentCheckStarring),
  userCurrentDeleteKey: route([reqToken()], userCurrentDeleteKey),
  userCurrentDeleteStar: route(starOf, userCurrentDeleteStar),
  userCurrentListKeys: route([reqToken()], userCurrentListKeys),
  userCurrentListRepos: route([reqToken()], userCurrentListRepos),
  userCurrentListStarred: route([reqToken()], userCurrentListStarred),
  userCurrentListSubscriptions: route([reqToken()], userCurrentListSubscriptions),
  userCurrentPostKey: route([reqToken()], userCurrentPostKey),
  userCurrentPutStar: route(starOf, userCurrentPutStar),
  userDeleteAccessToken: route(tokensOf, userDeleteAccessToken),
  userDeleteEmail: route([reqToken()], userDeleteEmail),
  userGet: route([userAssignment()], userGet),
  userGetCurrent: route([reqToken()], userGetCurrent),
  userGetTokens: route(tokensOf, userGetTokens),
  userListEmails: route([reqToken()], userListEmails),
  userListRepos: route([userAssignment()], userListRepos),
  userListStarred: route([userAssignment()], userListStarred),
  userListSubscriptions: route([userAssignment()], userListSubscriptions),
  userSearch: route([], userSearch),
  userCurrentListFollowers: route([reqToken()], follower.userCurrentListFollowers),
  userCurrentListFollowing: route([reqToken()], follower.userCurrentListFollowing),
  userCurrentCheckFollowing: route(followOf, follower.userCurrentCheckFollowing),
  userCurrentPutFollow: route(followOf, follower.userCurrentPutFollow),
  userCurrentDeleteFollow: route(followOf, follower.userCurrentDeleteFollow),
  userListFollowers: route([userAssignment()], follower.userListFollowers),
  userListFollowing: route([userAssignment()], follower.userListFollowing),
  userCheckFollowing: route([userAssignment()], follower.userCheckFollowing),
  userListKeys: route([userAssignment()], userListKeys),
  userCurrentGetKey: route([reqToken()], userCurrentGetKey),
  userListActivityFeeds: route([userAssignment()], userListActivityFeeds),
  userGetHeatmapData: route([userAssignment()], userGetHeatmapData),
  getUserSettings: route([reqToken()], getUserSettings),
  updateUserSettings: route([reqToken()], updateUserSettings),
  userUpdateAvatar: route([reqToken()], avatar.userUpdateAvatar),
  userDeleteAvatar: route([reqToken()], avatar.userDeleteAvatar),
};
