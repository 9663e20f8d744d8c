// Routes for organizations and instance hooks (Forgejo: routers/api/v1/api.go, the /orgs/{org} group).
// Each route's guards are its access rule: an organization the caller may not see is 404 before anything else.
import { orgAssignment, userAssignment } from '../assignment.ts';
import { reqOrgCreator, reqOrgMembership, reqOrgOwnership, reqSiteAdmin, reqToken } from '../guards.ts';
import {
  adminCreateHook,
  adminDeleteHook,
  adminEditHook,
  adminGetHook,
  adminListHooks,
} from '../handlers/admin/hook.ts';
import { adminCreateOrg, adminGetAllOrgs } from '../handlers/admin/org.ts';
import { orgDeleteAvatar, orgUpdateAvatar } from '../handlers/org/avatar.ts';
import { orgBlockUser, orgListBlockedUsers, orgUnblockUser } from '../handlers/org/block.ts';
import { orgCreateHook, orgDeleteHook, orgEditHook, orgGetHook, orgListHooks } from '../handlers/org/hook.ts';
import { orgCreateLabel, orgDeleteLabel, orgEditLabel, orgGetLabel, orgListLabels } from '../handlers/org/label.ts';
import {
  orgConcealMember,
  orgDeleteMember,
  orgIsMember,
  orgIsPublicMember,
  orgListMembers,
  orgListPublicMembers,
  orgPublicizeMember,
} from '../handlers/org/member.ts';
import {
  orgCreate,
  orgDelete,
  orgEdit,
  orgGet,
  orgGetAll,
  orgGetUserPermissions,
  orgListActivityFeeds,
  orgListCurrentUserOrgs,
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

/** `/orgs/{org}/…` as an owner: resolve the organization, then require a signed-in owner. */
const asOwner = [orgAssignment(), reqToken(), reqOrgOwnership()];
const asMember = [orgAssignment(), reqToken(), reqOrgMembership()];

export const orgsRoutes: RouteGroup<OrgsOperation> = {
  adminCreateHook: route([reqSiteAdmin()], adminCreateHook),
  adminCreateOrg: route([reqSiteAdmin(), userAssignment()], adminCreateOrg),
  adminDeleteHook: route([reqSiteAdmin()], adminDeleteHook),
  adminEditHook: route([reqSiteAdmin()], adminEditHook),
  adminGetAllOrgs: route([reqSiteAdmin()], adminGetAllOrgs),
  adminGetHook: route([reqSiteAdmin()], adminGetHook),
  adminListHooks: route([reqSiteAdmin()], adminListHooks),
  orgBlockUser: route(asOwner, orgBlockUser),
  orgConcealMember: route(asMember, orgConcealMember),
  orgCreate: route([reqToken(), reqOrgCreator()], orgCreate),
  orgCreateHook: route(asOwner, orgCreateHook),
  orgCreateLabel: route(asOwner, orgCreateLabel),
  orgDelete: route(asOwner, orgDelete),
  orgDeleteAvatar: route(asOwner, orgDeleteAvatar),
  orgDeleteHook: route(asOwner, orgDeleteHook),
  orgDeleteLabel: route(asOwner, orgDeleteLabel),
  orgDeleteMember: route(asOwner, orgDeleteMember),
  orgEdit: route(asOwner, orgEdit),
  orgEditHook: route(asOwner, orgEditHook),
  orgEditLabel: route(asOwner, orgEditLabel),
  orgGet: route([orgAssignment()], orgGet),
  orgGetAll: route([], orgGetAll),
  orgGetHook: route(asOwner, orgGetHook),
  orgGetLabel: route([orgAssignment(), reqToken()], orgGetLabel),
  orgGetUserPermissions: route([userAssignment(), orgAssignment(), reqToken()], orgGetUserPermissions),
  orgIsMember: route([orgAssignment(), reqToken()], orgIsMember),
  orgIsPublicMember: route([orgAssignment()], orgIsPublicMember),
  orgListActivityFeeds: route([orgAssignment()], orgListActivityFeeds),
  orgListBlockedUsers: route(asOwner, orgListBlockedUsers),
  orgListCurrentUserOrgs: route([reqToken()], orgListCurrentUserOrgs),
  orgListHooks: route(asOwner, orgListHooks),
  orgListLabels: route([orgAssignment()], orgListLabels),
  orgListMembers: route([orgAssignment(), reqToken()], orgListMembers),
  orgListPublicMembers: route([orgAssignment()], orgListPublicMembers),
  orgListUserOrgs: route([userAssignment(), reqToken()], orgListUserOrgs),
  orgPublicizeMember: route(asMember, orgPublicizeMember),
  orgUnblockUser: route(asOwner, orgUnblockUser),
  orgUpdateAvatar: route(asOwner, orgUpdateAvatar),
};
