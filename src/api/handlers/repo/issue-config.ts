// A repository's issue config and templates (Forgejo: routers/api/v1/repo/repo.go GetIssueConfig, GetIssueTemplates).
import type { Handler } from '../../route.ts';

export const repoGetIssueConfig: Handler<'repoGetIssueConfig'> = async (ctx) => {
  ctx.send(200, (await ctx.app.services.repoContents.issueConfig(ctx.repo().repo)).config);
};

export const repoValidateIssueConfig: Handler<'repoValidateIssueConfig'> = async (ctx) => {
  const { error } = await ctx.app.services.repoContents.issueConfig(ctx.repo().repo);
  ctx.send(200, { valid: error === null, message: error ?? '' });
};

export const repoGetIssueTemplates: Handler<'repoGetIssueTemplates'> = async (ctx) => {
  ctx.send(200, await ctx.app.services.repoContents.issueTemplates(ctx.repo().repo));
};
