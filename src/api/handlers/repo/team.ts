// The teams that reach a repository (Forgejo: routers/api/v1/repo/teams.go).
import { toTeam } from '../../../convert/team.ts';
import type { Handler } from '../../route.ts';
import { userView } from '../../view.ts';

export const repoListTeams: Handler<'repoListTeams'> = async (ctx) => {
  const { repo } = ctx.repo();
  const teams = await ctx.app.services.repoTeams.list(repo);
  const view = userView(ctx);
  ctx.send(
    200,
    teams.map((team) => toTeam(team, view, repo.owner)),
  );
};

export const repoCheckTeam: Handler<'repoCheckTeam'> = async (ctx) => {
  const { repo } = ctx.repo();
  ctx.send(200, toTeam(await ctx.app.services.repoTeams.get(repo, ctx.params.team), userView(ctx), repo.owner));
};

export const repoAddTeam: Handler<'repoAddTeam'> = async (ctx) => {
  await ctx.app.services.repoTeams.add(ctx.repo().repo, ctx.params.team);
  ctx.send(204);
};

export const repoDeleteTeam: Handler<'repoDeleteTeam'> = async (ctx) => {
  await ctx.app.services.repoTeams.remove(ctx.repo().repo, ctx.params.team);
  ctx.send(204);
};
