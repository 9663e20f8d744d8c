// Actions settings of an organization (Forgejo: routers/api/v1/org/action.go).
import { toActionVariable, toSecret } from '../../../convert/action.ts';
import { ownerScope } from '../../../domain/action-scope.ts';
import type { Handler } from '../../route.ts';

export const orgListActionsSecrets: Handler<'orgListActionsSecrets'> = async (ctx) => {
  const page = ctx.listOptions();
  const { items, total } = await ctx.app.services.actionSecrets.list(ownerScope(ctx.org()), page);
  ctx.sendPage(200, items.map(toSecret), page, total);
};

export const updateOrgSecret: Handler<'updateOrgSecret'> = async (ctx) => {
  const outcome = await ctx.app.services.actionSecrets.put(ownerScope(ctx.org()), ctx.params.secretname, ctx.body.data);
  ctx.send(outcome === 'created' ? 201 : 204);
};

export const deleteOrgSecret: Handler<'deleteOrgSecret'> = async (ctx) => {
  await ctx.app.services.actionSecrets.delete(ownerScope(ctx.org()), ctx.params.secretname);
  ctx.send(204);
};

export const getOrgVariablesList: Handler<'getOrgVariablesList'> = async (ctx) => {
  const page = ctx.listOptions();
  const { items, total } = await ctx.app.services.actionVariables.list(ownerScope(ctx.org()), page);
  ctx.sendPage(200, items.map(toActionVariable), page, total);
};

export const getOrgVariable: Handler<'getOrgVariable'> = async (ctx) => {
  ctx.send(
    200,
    toActionVariable(await ctx.app.services.actionVariables.get(ownerScope(ctx.org()), ctx.params.variablename)),
  );
};

export const createOrgVariable: Handler<'createOrgVariable'> = async (ctx) => {
  await ctx.app.services.actionVariables.create(ownerScope(ctx.org()), ctx.params.variablename, ctx.body.value);
  ctx.send(204);
};

export const updateOrgVariable: Handler<'updateOrgVariable'> = async (ctx) => {
  await ctx.app.services.actionVariables.update(ownerScope(ctx.org()), ctx.params.variablename, ctx.body);
  ctx.send(204);
};

export const deleteOrgVariable: Handler<'deleteOrgVariable'> = async (ctx) => {
  await ctx.app.services.actionVariables.delete(ownerScope(ctx.org()), ctx.params.variablename);
  ctx.send(204);
};

export const orgGetRunnerRegistrationToken: Handler<'orgGetRunnerRegistrationToken'> = async (ctx) => {
  ctx.send(200, { token: await ctx.app.services.runnerTokens.registrationToken(ownerScope(ctx.org())) });
};
