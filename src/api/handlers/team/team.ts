// Teams of an organization (Forgejo: routers/api/v1/org/team.go).
import type { RequestBody } from '../../../../generated/operations.ts';
import { isPublicOnly } from '../../../auth/caller.ts';
import { toActivity } from '../../../convert/activity.ts';
import { toTeam } from '../../../convert/team.ts';
import { ApiError } from '../../../domain/errors.ts';
import type { TeamInput } from '../../../services/team.service.ts';
import type { Handler } from '../../route.ts';
import { userView } from '../../view.ts';

function teamInput(body: RequestBody<'orgCreateTeam'> | RequestBody<'orgEditTeam'> | undefined): TeamInput {
  return {
    name: body?.name,
    description: body?.description,
    includesAllRepositories: body?.includes_all_repositories,
    canCreateOrgRepo: body?.can_create_org_repo,
    permission: body?.permission,
    units: body?.units,
    unitsMap: body?.units_map,
  };
}

export const orgListTeams: Handler<'orgListTeams'> = async (ctx) => {
  const page = ctx.listOptions();
  const { teams, total } = await ctx.app.services.teams.listOrgTeams(ctx.org(), page);
  ctx.sendPage(
    200,
    teams.map((team) => toTeam(team, userView(ctx))),
    page,
    total,
  );
};

export const orgCreateTeam: Handler<'orgCreateTeam'> = async (ctx) => {
  const team = await ctx.app.services.teams.create(ctx.org(), teamInput(ctx.body));
  ctx.send(201, toTeam(team, userView(ctx), ctx.org()));
};

export const orgGetTeam: Handler<'orgGetTeam'> = async (ctx) => {
  const team = await ctx.app.services.teams.get(ctx.team());
  ctx.send(200, toTeam(team, userView(ctx), ctx.org()));
};

export const orgEditTeam: Handler<'orgEditTeam'> = async (ctx) => {
  const team = await ctx.app.services.teams.edit(ctx.team(), ctx.org(), teamInput(ctx.body));
  ctx.send(200, toTeam(team, userView(ctx)));
};

export const orgDeleteTeam: Handler<'orgDeleteTeam'> = async (ctx) => {
  await ctx.app.services.teams.delete(ctx.team(), ctx.org());
  ctx.send(204);
};

/** The contract gives search failures their own body, `{ok: false, error}`; refusals stay ordinary errors. */
export const teamSearch: Handler<'teamSearch'> = async (ctx) => {
  const page = ctx.listOptions();
  try {
    const { teams, total } = await ctx.app.services.teams.searchOrgTeams(
      ctx.doer(),
      ctx.org(),
      ctx.query.q ?? '',
      ctx.query.include_desc,
      page,
    );
    ctx.sendPage(200, { ok: true, data: teams.map((team) => toTeam(team, userView(ctx))) }, page, total);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    ctx.app.log.error({ err: error }, 'team search failed');
    ctx.send(500, { ok: false, error: 'SearchTeam internal failure' });
  }
};

export const userListTeams: Handler<'userListTeams'> = async (ctx) => {
  const page = ctx.listOptions();
  const { teams, total } = await ctx.app.services.teams.listUserTeams(ctx.caller!, page);
  ctx.sendPage(
    200,
    teams.map((team) => toTeam(team, userView(ctx), team.org)),
    page,
    total,
  );
};

export const orgListTeamActivityFeeds: Handler<'orgListTeamActivityFeeds'> = async (ctx) => {
  const page = ctx.listOptions();
  const publicOnly = isPublicOnly(ctx.caller);
  const feeds = await ctx.app.services.teams.feeds(ctx.doer(), publicOnly, ctx.team(), ctx.org(), ctx.query.date, page);
  const { activities, total } = feeds;
  const view = userView(ctx);
  ctx.sendPage(
    200,
    activities.map((activity) => toActivity(activity, view)),
    page,
    total,
  );
};
