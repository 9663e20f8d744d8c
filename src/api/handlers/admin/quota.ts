// Administration of quota groups and rules, and of a user's quota (Forgejo: routers/api/v1/admin/quota*.go).
import { toQuotaGroup, toQuotaInfo, toQuotaRuleInfo } from '../../../convert/quota.ts';
import { toUser } from '../../../convert/user.ts';
import type { Handler } from '../../route.ts';
import { userView } from '../../view.ts';

export const adminListQuotaRules: Handler<'adminListQuotaRules'> = async (ctx) => {
  const rules = await ctx.app.services.quota.listRules();
  ctx.send(
    200,
    rules.map((rule) => toQuotaRuleInfo(rule)),
  );
};

export const adminCreateQuotaRule: Handler<'adminCreateQuotaRule'> = async (ctx) => {
  ctx.send(201, toQuotaRuleInfo(await ctx.app.services.quota.createRule(ctx.body)));
};

export const adminGetQuotaRule: Handler<'adminGetQuotaRule'> = async (ctx) => {
  ctx.send(200, toQuotaRuleInfo(await ctx.app.services.quota.getRule(ctx.params.quotarule)));
};

export const adminEditQuotaRule: Handler<'adminEditQuotaRule'> = async (ctx) => {
  ctx.send(200, toQuotaRuleInfo(await ctx.app.services.quota.editRule(ctx.params.quotarule, ctx.body ?? {})));
};

export const adminDEleteQuotaRule: Handler<'adminDEleteQuotaRule'> = async (ctx) => {
  await ctx.app.services.quota.deleteRule(ctx.params.quotarule);
  ctx.send(204);
};

export const adminListQuotaGroups: Handler<'adminListQuotaGroups'> = async (ctx) => {
  const groups = await ctx.app.services.quota.listGroups();
  ctx.send(
    200,
    groups.map((group) => toQuotaGroup(group)),
  );
};

export const adminCreateQuotaGroup: Handler<'adminCreateQuotaGroup'> = async (ctx) => {
  ctx.send(201, toQuotaGroup(await ctx.app.services.quota.createGroup(ctx.body)));
};

export const adminGetQuotaGroup: Handler<'adminGetQuotaGroup'> = async (ctx) => {
  ctx.send(200, toQuotaGroup(await ctx.app.services.quota.getGroup(ctx.params.quotagroup)));
};

export const adminDeleteQuotaGroup: Handler<'adminDeleteQuotaGroup'> = async (ctx) => {
  await ctx.app.services.quota.deleteGroup(ctx.params.quotagroup);
  ctx.send(204);
};

export const adminAddRuleToQuotaGroup: Handler<'adminAddRuleToQuotaGroup'> = async (ctx) => {
  await ctx.app.services.quota.addRuleToGroup(ctx.params.quotagroup, ctx.params.quotarule);
  ctx.send(204);
};

export const adminRemoveRuleFromQuotaGroup: Handler<'adminRemoveRuleFromQuotaGroup'> = async (ctx) => {
  await ctx.app.services.quota.removeRuleFromGroup(ctx.params.quotagroup, ctx.params.quotarule);
  ctx.send(204);
};

export const adminListUsersInQuotaGroup: Handler<'adminListUsersInQuotaGroup'> = async (ctx) => {
  const users = await ctx.app.services.quota.listGroupUsers(ctx.params.quotagroup);
  const view = userView(ctx);
  ctx.send(
    200,
    users.map((user) => toUser(user, view)),
  );
};

export const adminAddUserToQuotaGroup: Handler<'adminAddUserToQuotaGroup'> = async (ctx) => {
  await ctx.app.services.quota.addUserToGroup(ctx.params.quotagroup, ctx.user());
  ctx.send(204);
};

export const adminRemoveUserFromQuotaGroup: Handler<'adminRemoveUserFromQuotaGroup'> = async (ctx) => {
  await ctx.app.services.quota.removeUserFromGroup(ctx.params.quotagroup, ctx.user());
  ctx.send(204);
};

export const adminSetUserQuotaGroups: Handler<'adminSetUserQuotaGroups'> = async (ctx) => {
  await ctx.app.services.quota.setUserGroups(ctx.user(), ctx.body.groups);
  ctx.send(204);
};

export const adminGetUserQuota: Handler<'adminGetUserQuota'> = async (ctx) => {
  ctx.send(200, toQuotaInfo(await ctx.app.services.quota.info(ctx.user()), true));
};
