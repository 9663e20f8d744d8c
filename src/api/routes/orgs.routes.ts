// Routes for organizations and instance hooks. Visibility and org roles are checked by the services
// (OrgService.resolve), so an organization the caller may not see is 404 on every route.
import { reqSiteAdmin, reqToken } from '../guards.ts';
import { adminCreateHook, adminDeleteHook, adminEditHook, adminGetHook, adminListHooks } from '../handlers/admin/hook.ts';
import { adminCreateOrg, adminGetAllOrgs } from '../handlers/admin/org.ts';
import { orgDeleteAvatar, orgUpdateAvatar } from '../handlers/org/avatar.ts';
import { orgBlockUser, orgListBlockedUsers, orgUnblockUser } from '../handlers/org/block.ts';
import { orgCreateHook, orgDeleteHook, orgEditHook, orgGetHook, orgListHooks } from '../handlers/org/hook.ts';
import { orgCreateLabel, orgDeleteLabel, orgEditLabel, orgGetLabel, orgListLabels } from '../handlers/org/label.ts';
import {
  orgConcealMember, orgDeleteMember, orgIsMember, orgIsPublicMember, orgListMembers, orgListPublicMembers, orgPublicizeMember,
} from '../handlers/org/member.ts';
import {
  orgCreate, orgDelete, orgEdit, orgGet, orgGetAll, orgGetUserPermissions, orgListActivityFeeds, orgListCurrentUserOrgs,
  orgListUserOrgs,
} from '../handlers/org/org.ts';
import { route, type RouteGroup } from '../route.ts';

export type OrgsOperation =
  | 'adminCreateHook'
  | 'adminCreateOrg'
  | 'adminDeleteHook'
  | 'adminEditHook'
  | 'adminGetAllOrgs'
  | 'adminGetHook'
  | 'adminListHooks'
  | 'orgBlockUser'
  | 'orgConcealMember'
  | 'orgCreate'
  | 'orgCreateHook'
  | 'orgCreateLabel'
  | 'orgDelete'
  | 'orgDeleteAvatar'
  | 'orgDeleteHook'
  | 'orgDeleteLabel'
  | 'orgDeleteMember'
  | 'orgEdit'
  | 'orgEditHook'
  | 'orgEditLabel'
  | 'orgGet'
  | 'orgGetAll'
  | 'orgGetHook'
  | 'orgGetLabel'
  | 'orgGetUserPermissions'
  | 'orgIsMember'
  | 'orgIsPublicMember'
  | 'orgListActivityFeeds'
  | 'orgListBlockedUsers'
  | 'orgListCurrentUserOrgs'
  | 'orgListHooks'
  | 'orgListLabels'
  | 'orgListMembers'
  | 'orgListPublicMembers'
  | 'orgListUserOrgs'
  | 'orgPublicizeMember'
  | 'orgUnblockUser'
  | 'orgUpdateAvatar';

export const orgsRoutes: RouteGroup<OrgsOperation> = {
  adminCreateHook: route([reqSiteAdmin()], adminCreateHook),
  adminCreateOrg: route([reqSiteAdmin()], adminCreateOrg),
  adminDeleteHook: route([reqSiteAdmin()], adminDeleteHook),
  adminEditHook: route([reqSiteAdmin()], adminEditHook),
  adminGetAllOrgs: route([reqSiteAdmin()], adminGetAllOrgs),
  adminGetHook: route([reqSiteAdmin()], adminGetHook),
  adminListHooks: route([reqSiteAdmin()], adminListHooks),
  orgBlockUser: route([reqToken()], orgBlockUser),
  orgConcealMember: route([reqToken()], orgConcealMember),
  orgCreate: route([reqToken()], orgCreate),
  orgCreateHook: route([reqToken()], orgCreateHook),
  orgCreateLabel: route([reqToken()], orgCreateLabel),
  orgDelete: route([reqToken()], orgDelete),
  orgDeleteAvatar: route([reqToken()], orgDeleteAvatar),
  orgDeleteHook: route([reqToken()], orgDeleteHook),
  orgDeleteLabel: route([reqToken()], orgDeleteLabel),
  orgDeleteMember: route([reqToken()], orgDeleteMember),
  orgEdit: route([reqToken()], orgEdit),
  orgEditHook: route([reqToken()], orgEditHook),
  orgEditLabel: route([reqToken()], orgEditLabel),
  orgGet: route([], orgGet),
  orgGetAll: route([], orgGetAll),
  orgGetHook: route([reqToken()], orgGetHook),
  orgGetLabel: route([reqToken()], orgGetLabel),
  orgGetUserPermissions: route([reqToken()], orgGetUserPermissions),
  orgIsMember: route([reqToken()], orgIsMember),
  orgIsPublicMember: route([], orgIsPublicMember),
  orgListActivityFeeds: route([], orgListActivityFeeds),
  orgListBlockedUsers: route([reqToken()], orgListBlockedUsers),
  orgListCurrentUserOrgs: route([reqToken()], orgListCurrentUserOrgs),
  orgListHooks: route([reqToken()], orgListHooks),
  orgListLabels: route([], orgListLabels),
  orgListMembers: route([reqToken()], orgListMembers),
  orgListPublicMembers: route([], orgListPublicMembers),
  orgListUserOrgs: route([reqToken()], orgListUserOrgs),
  orgPublicizeMember: route([reqToken()], orgPublicizeMember),
  orgUnblockUser: route([reqToken()], orgUnblockUser),
  orgUpdateAvatar: route([reqToken()], orgUpdateAvatar),
};
