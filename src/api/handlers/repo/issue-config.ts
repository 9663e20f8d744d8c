// A repository's issue config (Forgejo: routers/api/v1/repo/repo.go GetIssueConfig, ValidateIssueConfig).
import type { Handler } from '../../route.ts';

export const repoGetIssueConfig: Handler<'repoGetIssueConfig'> = async (ctx) => {
  ctx.send(200, (await ctx.app.services.repoContents.issueConfig(ctx.repo().repo)).config);
};

export const repoValidateIssueConfig: Handler<'repoValidateIssueConfig'> = async (ctx) => {
  const { error } = await ctx.app.services.repoContents.issueConfig(ctx.repo().repo);
  ctx.send(200, { valid: error === null, message: error ?? '' });
};
