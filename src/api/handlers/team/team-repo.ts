// Repositories of a team (Forgejo: routers/api/v1/org/team.go). The `{org}` segment is not used: the
// repository is looked up in the team's organization.
import { toRepository } from '../../../convert/repository.ts';
import type { Handler } from '../../route.ts';
import { userView } from '../../view.ts';

export const orgListTeamRepos: Handler<'orgListTeamRepos'> = async (ctx) => {
  const page = ctx.listOptions();
  const { repos, total } = await ctx.app.services.teams.listRepos(ctx.doer(), ctx.team(), page);
  const view = userView(ctx);
  ctx.sendPage(
    200,
    repos.map((repo) => toRepository(repo, view)),
    page,
    total,
  );
};

export const orgListTeamRepo: Handler<'orgListTeamRepo'> = async (ctx) => {
  const repo = await ctx.app.services.teams.getRepo(ctx.doer(), ctx.team(), ctx.org(), ctx.params.repo);
  ctx.send(200, toRepository(repo, userView(ctx)));
};

export const orgAddTeamRepository: Handler<'orgAddTeamRepository'> = async (ctx) => {
  await ctx.app.services.teams.addRepo(ctx.doer(), ctx.team(), ctx.org(), ctx.params.repo);
  ctx.send(204);
};

export const orgRemoveTeamRepository: Handler<'orgRemoveTeamRepository'> = async (ctx) => {
  await ctx.app.services.teams.removeRepo(ctx.doer(), ctx.team(), ctx.org(), ctx.params.repo);
  ctx.send(204);
};
