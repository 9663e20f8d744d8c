// Routes for users. An operation bound to notImplemented() answers 501 until it is built.
import { reqToken } from '../guards.ts';
import { userCreateToken, userDeleteAccessToken, userGetTokens } from '../handlers/user/token.ts';
import { userGetCurrent } from '../handlers/user/user.ts';
import { notImplemented, route, type RouteGroup } from '../route.ts';

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
  adminCreatePublicKey: notImplemented(),
  adminCreateUser: notImplemented(),
  adminDeleteUser: notImplemented(),
  adminDeleteUserPublicKey: notImplemented(),
  adminEditUser: notImplemented(),
  adminGetAllEmails: notImplemented(),
  adminRenameUser: notImplemented(),
  adminSearchEmails: notImplemented(),
  adminSearchUsers: notImplemented(),
  userCreateToken: route([reqToken()], userCreateToken),
  userDeleteAccessToken: route([reqToken()], userDeleteAccessToken),
  userGetCurrent: route([reqToken()], userGetCurrent),
  userGetTokens: route([reqToken()], userGetTokens),
};
