// Routes for users, their tokens and their administration (Forgejo: routers/api/v1/api.go).
import { userAssignment } from '../assignment.ts';
import { reqBasicAuth, reqSelfOrAdmin, reqSiteAdmin, reqToken } from '../guards.ts';
import { adminGetAllEmails, adminSearchEmails } from '../handlers/admin/email.ts';
import { adminCreatePublicKey, adminDeleteUserPublicKey } from '../handlers/admin/public-key.ts';
import { adminCreateUser, adminDeleteUser, adminEditUser, adminRenameUser, adminSearchUsers } from '../handlers/admin/user.ts';
import { userCreateToken, userDeleteAccessToken, userGetTokens } from '../handlers/user/token.ts';
import { userGetCurrent } from '../handlers/user/user.ts';
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
  | 'userCreateToken'
  | 'userDeleteAccessToken'
  | 'userGetCurrent'
  | 'userGetTokens';

/** `/admin/users/{username}/…`: a site admin, then the user (renamed names redirect). */
const adminOnUser = [reqSiteAdmin(), userAssignment()];

/**
 * `/users/{username}/tokens`: the user themself or a site admin, signed in with the password (Forgejo:
 * reqSelfOrAdmin, reqBasicOrRevProxyAuth on the whole group), so no token lists, mints or removes tokens.
 */
const tokensOf = [userAssignment('username', { individualOnly: true }), reqToken(), reqSelfOrAdmin(), reqBasicAuth()];

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
  userCreateToken: route(tokensOf, userCreateToken),
  userDeleteAccessToken: route(tokensOf, userDeleteAccessToken),
  userGetCurrent: route([reqToken()], userGetCurrent),
  userGetTokens: route(tokensOf, userGetTokens),
};
