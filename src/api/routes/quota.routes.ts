// Routes for quota (Forgejo: routers/api/v1/api.go, the /admin/quota, /admin/users/{username}/quota,
// /orgs/{org}/quota and /user/quota groups). With [quota] ENABLED=false none of them exists: 404 before anything.
import { orgAssignment, userAssignment } from '../assignment.ts';
import { reqFeature, reqOrgOwnership, reqSiteAdmin, reqToken } from '../guards.ts';
import {
  adminAddRuleToQuotaGroup,
  adminAddUserToQuotaGroup,
  adminCreateQuotaGroup,
  adminCreateQuotaRule,
  adminDeleteQuotaGroup,
  adminDEleteQuotaRule,
  adminEditQuotaRule,
  adminGetQuotaGroup,
  adminGetQuotaRule,
  adminGetUserQuota,
  adminListQuotaGroups,
  adminListQuotaRules,
  adminListUsersInQuotaGroup,
  adminRemoveRuleFromQuotaGroup,
  adminRemoveUserFromQuotaGroup,
  adminSetUserQuotaGroups,
} from '../handlers/admin/quota.ts';
import {
  orgCheckQuota,
  orgGetQuota,
  orgListQuotaArtifacts,
  orgListQuotaAttachments,
  orgListQuotaPackages,
} from '../handlers/org/quota.ts';
import {
  userCheckQuota,
  userGetQuota,
  userListQuotaArtifacts,
  userListQuotaAttachments,
  userListQuotaPackages,
} from '../handlers/user/quota.ts';
import { route, type RouteGroup } from '../route.ts';

export type QuotaOperation =
  | 'adminAddRuleToQuotaGroup'
  | 'adminAddUserToQuotaGroup'
  | 'adminCreateQuotaGroup'
  | 'adminCreateQuotaRule'
  | 'adminDeleteQuotaGroup'
  | 'adminDEleteQuotaRule'
  | 'adminEditQuotaRule'
  | 'adminGetQuotaGroup'
  | 'adminGetQuotaRule'
  | 'adminGetUserQuota'
  | 'adminListQuotaGroups'
  | 'adminListQuotaRules'
  | 'adminListUsersInQuotaGroup'
  | 'adminRemoveRuleFromQuotaGroup'
  | 'adminRemoveUserFromQuotaGroup'
  | 'adminSetUserQuotaGroups'
  | 'orgCheckQuota'
  | 'orgGetQuota'
  | 'orgListQuotaArtifacts'
  | 'orgListQuotaAttachments'
  | 'orgListQuotaPackages'
  | 'userCheckQuota'
  | 'userGetQuota'
  | 'userListQuotaArtifacts'
  | 'userListQuotaAttachments'
  | 'userListQuotaPackages';

const asAdmin = [reqFeature('quota'), reqSiteAdmin()];
/** Groups may hold organizations too: their quota is counted like a user's. */
const asAdminOnUser = [...asAdmin, userAssignment()];
const asOrgOwner = [reqFeature('quota'), orgAssignment(), reqToken(), reqOrgOwnership()];
const asSelf = [reqFeature('quota'), reqToken()];

export const quotaRoutes: RouteGroup<QuotaOperation> = {
  adminAddRuleToQuotaGroup: route(asAdmin, adminAddRuleToQuotaGroup),
  adminAddUserToQuotaGroup: route(asAdminOnUser, adminAddUserToQuotaGroup),
  adminCreateQuotaGroup: route(asAdmin, adminCreateQuotaGroup),
  adminCreateQuotaRule: route(asAdmin, adminCreateQuotaRule),
  adminDeleteQuotaGroup: route(asAdmin, adminDeleteQuotaGroup),
  adminDEleteQuotaRule: route(asAdmin, adminDEleteQuotaRule),
  adminEditQuotaRule: route(asAdmin, adminEditQuotaRule),
  adminGetQuotaGroup: route(asAdmin, adminGetQuotaGroup),
  adminGetQuotaRule: route(asAdmin, adminGetQuotaRule),
  adminGetUserQuota: route(asAdminOnUser, adminGetUserQuota),
  adminListQuotaGroups: route(asAdmin, adminListQuotaGroups),
  adminListQuotaRules: route(asAdmin, adminListQuotaRules),
  adminListUsersInQuotaGroup: route(asAdmin, adminListUsersInQuotaGroup),
  adminRemoveRuleFromQuotaGroup: route(asAdmin, adminRemoveRuleFromQuotaGroup),
  adminRemoveUserFromQuotaGroup: route(asAdminOnUser, adminRemoveUserFromQuotaGroup),
  adminSetUserQuotaGroups: route(asAdminOnUser, adminSetUserQuotaGroups),
  orgCheckQuota: route(asOrgOwner, orgCheckQuota),
  orgGetQuota: route(asOrgOwner, orgGetQuota),
  orgListQuotaArtifacts: route(asOrgOwner, orgListQuotaArtifacts),
  orgListQuotaAttachments: route(asOrgOwner, orgListQuotaAttachments),
  orgListQuotaPackages: route(asOrgOwner, orgListQuotaPackages),
  userCheckQuota: route(asSelf, userCheckQuota),
  userGetQuota: route(asSelf, userGetQuota),
  userListQuotaArtifacts: route(asSelf, userListQuotaArtifacts),
  userListQuotaAttachments: route(asSelf, userListQuotaAttachments),
  userListQuotaPackages: route(asSelf, userListQuotaPackages),
};
