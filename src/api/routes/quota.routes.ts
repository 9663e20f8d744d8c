// Routes for quota. An operation bound to notImplemented() answers 501 until it is built.
import { notImplemented, type RouteGroup } from '../route.ts';

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
  | 'orgListQuotaPackages';

export const quotaRoutes: RouteGroup<QuotaOperation> = {
  adminAddRuleToQuotaGroup: notImplemented(),
  adminAddUserToQuotaGroup: notImplemented(),
  adminCreateQuotaGroup: notImplemented(),
  adminCreateQuotaRule: notImplemented(),
  adminDeleteQuotaGroup: notImplemented(),
  adminDEleteQuotaRule: notImplemented(),
  adminEditQuotaRule: notImplemented(),
  adminGetQuotaGroup: notImplemented(),
  adminGetQuotaRule: notImplemented(),
  adminGetUserQuota: notImplemented(),
  adminListQuotaGroups: notImplemented(),
  adminListQuotaRules: notImplemented(),
  adminListUsersInQuotaGroup: notImplemented(),
  adminRemoveRuleFromQuotaGroup: notImplemented(),
  adminRemoveUserFromQuotaGroup: notImplemented(),
  adminSetUserQuotaGroups: notImplemented(),
  orgCheckQuota: notImplemented(),
  orgGetQuota: notImplemented(),
  orgListQuotaArtifacts: notImplemented(),
  orgListQuotaAttachments: notImplemented(),
  orgListQuotaPackages: notImplemented(),
};
