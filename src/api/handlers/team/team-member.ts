// Members of a team (Forgejo: routers/api/v1/org/team.go).
import { toUser } from '../../../convert/user.ts';
import type { Handler } from '../../route.ts';
import { userView } from '../../view.ts';

export const orgListTeamMembers: Handler<'orgListTeamMembers'> = async (ctx) => {
  const page = ctx.listOptions();
  const { users, total } = await ctx.app.services.teams.listMembers(ctx.team(), page);
  const view = userView(ctx);
  ctx.sendPage(
    200,
    users.map((user) => toUser(user, view)),
    page,
    total,
  );
};

export const orgListTeamMember: Handler<'orgListTeamMember'> = async (ctx) => {
  const user = await ctx.app.services.teams.getMember(ctx.team(), ctx.params.username);
  ctx.send(200, toUser(user, userView(ctx)));
};

export const orgAddTeamMember: Handler<'orgAddTeamMember'> = async (ctx) => {
  await ctx.app.services.teams.addMember(ctx.team(), ctx.org(), ctx.params.username);
  ctx.send(204);
};

export const orgRemoveTeamMember: Handler<'orgRemoveTeamMember'> = async (ctx) => {
  await ctx.app.services.teams.removeMember(ctx.team(), ctx.org(), ctx.params.username);
  ctx.send(204);
};
