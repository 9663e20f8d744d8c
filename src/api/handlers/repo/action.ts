// Actions settings of a repository (Forgejo: routers/api/v1/repo/action.go).
import { toActionVariable, toSecret } from '../../../convert/action.ts';
import { repoScope } from '../../../domain/action-scope.ts';
import type { Handler } from '../../route.ts';

export const repoListActionsSecrets: Handler<'repoListActionsSecrets'> = async (ctx) => {
  const page = ctx.listOptions();
  const { items, total } = await ctx.app.services.actionSecrets.list(repoScope(ctx.repo().repo), page);
  ctx.sendPage(200, items.map(toSecret), page, total);
};

export const updateRepoSecret: Handler<'updateRepoSecret'> = async (ctx) => {
  const outcome = await ctx.app.services.actionSecrets.put(
    repoScope(ctx.repo().repo),
    ctx.params.secretname,
    ctx.body.data,
  );
  ctx.send(outcome === 'created' ? 201 : 204);
};

export const deleteRepoSecret: Handler<'deleteRepoSecret'> = async (ctx) => {
  await ctx.app.services.actionSecrets.delete(repoScope(ctx.repo().repo), ctx.params.secretname);
  ctx.send(204);
};

export const getRepoVariablesList: Handler<'getRepoVariablesList'> = async (ctx) => {
  const page = ctx.listOptions();
  const { items, total } = await ctx.app.services.actionVariables.list(repoScope(ctx.repo().repo), page);
  ctx.sendPage(200, items.map(toActionVariable), page, total);
};

export const getRepoVariable: Handler<'getRepoVariable'> = async (ctx) => {
  ctx.send(
    200,
    toActionVariable(await ctx.app.services.actionVariables.get(repoScope(ctx.repo().repo), ctx.params.variablename)),
  );
};

export const createRepoVariable: Handler<'createRepoVariable'> = async (ctx) => {
  await ctx.app.services.actionVariables.create(repoScope(ctx.repo().repo), ctx.params.variablename, ctx.body.value);
  ctx.send(204);
};

export const updateRepoVariable: Handler<'updateRepoVariable'> = async (ctx) => {
  await ctx.app.services.actionVariables.update(repoScope(ctx.repo().repo), ctx.params.variablename, ctx.body);
  ctx.send(204);
};

export const deleteRepoVariable: Handler<'deleteRepoVariable'> = async (ctx) => {
  await ctx.app.services.actionVariables.delete(repoScope(ctx.repo().repo), ctx.params.variablename);
  ctx.send(204);
};

export const repoGetRunnerRegistrationToken: Handler<'repoGetRunnerRegistrationToken'> = async (ctx) => {
  ctx.send(200, { token: await ctx.app.services.runnerTokens.registrationToken(repoScope(ctx.repo().repo)) });
};
