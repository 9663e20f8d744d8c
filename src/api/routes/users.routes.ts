// Routes for users. An operation bound to notImplemented() answers 501 until it is built.
import { reqSiteAdmin, reqToken } from '../guards.ts';
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

export const usersRoutes: RouteGroup<UsersOperation> = {
  adminCreatePublicKey: route([reqSiteAdmin()], adminCreatePublicKey),
  adminCreateUser: route([reqSiteAdmin()], adminCreateUser),
  adminDeleteUser: route([reqSiteAdmin()], adminDeleteUser),
  adminDeleteUserPublicKey: route([reqSiteAdmin()], adminDeleteUserPublicKey),
  adminEditUser: route([reqSiteAdmin()], adminEditUser),
  adminGetAllEmails: route([reqSiteAdmin()], adminGetAllEmails),
  adminRenameUser: route([reqSiteAdmin()], adminRenameUser),
  adminSearchEmails: route([reqSiteAdmin()], adminSearchEmails),
  adminSearchUsers: route([reqSiteAdmin()], adminSearchUsers),
  userCreateToken: route([reqToken()], userCreateToken),
  userDeleteAccessToken: route([reqToken()], userDeleteAccessToken),
  userGetCurrent: route([reqToken()], userGetCurrent),
  userGetTokens: route([reqToken()], userGetTokens),
};
