// Actions settings of the caller's own account (Forgejo: routers/api/v1/user/action.go).
import { toActionVariable } from '../../../convert/action.ts';
import { ownerScope } from '../../../domain/action-scope.ts';
import type { Handler } from '../../route.ts';

export const updateUserSecret: Handler<'updateUserSecret'> = async (ctx) => {
  const outcome = await ctx.app.services.actionSecrets.put(
    ownerScope(ctx.doer()),
    ctx.params.secretname,
    ctx.body.data,
  );
  ctx.send(outcome === 'created' ? 201 : 204);
};

export const deleteUserSecret: Handler<'deleteUserSecret'> = async (ctx) => {
  await ctx.app.services.actionSecrets.delete(ownerScope(ctx.doer()), ctx.params.secretname);
  ctx.send(204);
};

export const getUserVariablesList: Handler<'getUserVariablesList'> = async (ctx) => {
  const page = ctx.listOptions();
  const { items, total } = await ctx.app.services.actionVariables.list(ownerScope(ctx.doer()), page);
  ctx.sendPage(200, items.map(toActionVariable), page, total);
};

export const getUserVariable: Handler<'getUserVariable'> = async (ctx) => {
  ctx.send(
    200,
    toActionVariable(await ctx.app.services.actionVariables.get(ownerScope(ctx.doer()), ctx.params.variablename)),
  );
};

export const createUserVariable: Handler<'createUserVariable'> = async (ctx) => {
  await ctx.app.services.actionVariables.create(ownerScope(ctx.doer()), ctx.params.variablename, ctx.body.value);
  ctx.send(204);
};

export const updateUserVariable: Handler<'updateUserVariable'> = async (ctx) => {
  await ctx.app.services.actionVariables.update(ownerScope(ctx.doer()), ctx.params.variablename, ctx.body);
  ctx.send(204);
};

export const deleteUserVariable: Handler<'deleteUserVariable'> = async (ctx) => {
  await ctx.app.services.actionVariables.delete(ownerScope(ctx.doer()), ctx.params.variablename);
  ctx.send(204);
};

export const userGetRunnerRegistrationToken: Handler<'userGetRunnerRegistrationToken'> = async (ctx) => {
  ctx.send(200, { token: await ctx.app.services.runnerTokens.registrationToken(ownerScope(ctx.doer())) });
};
