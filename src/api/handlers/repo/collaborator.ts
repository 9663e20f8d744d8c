// Collaborators of a repository (Forgejo: routers/api/v1/repo/collaborators.go).
import { toUser } from '../../../convert/user.ts';
import { NotFoundError } from '../../../domain/errors.ts';
import type { Handler } from '../../route.ts';
import { userView } from '../../view.ts';

export const repoListCollaborators: Handler<'repoListCollaborators'> = async (ctx) => {
  const page = ctx.listOptions();
  const { items, total } = await ctx.app.services.collaborators.list(ctx.repo().repo, page);
  const view = userView(ctx);
  ctx.sendPage(
    200,
    items.map((user) => toUser(user, view)),
    page,
    total,
  );
};

export const repoCheckCollaborator: Handler<'repoCheckCollaborator'> = async (ctx) => {
  if (!(await ctx.app.services.collaborators.isCollaborator(ctx.repo().repo, ctx.params.collaborator)))
    throw new NotFoundError();
  ctx.send(204);
};

export const repoAddCollaborator: Handler<'repoAddCollaborator'> = async (ctx) => {
  await ctx.app.services.collaborators.add(ctx.repo().repo, ctx.params.collaborator, ctx.body?.permission);
  ctx.send(204);
};

export const repoDeleteCollaborator: Handler<'repoDeleteCollaborator'> = async (ctx) => {
  await ctx.app.services.collaborators.remove(ctx.repo().repo, ctx.params.collaborator);
  ctx.send(204);
};

export const repoGetRepoPermissions: Handler<'repoGetRepoPermissions'> = async (ctx) => {
  const { user, permission } = await ctx.app.services.collaborators.permissionOf(
    ctx.repo(),
    ctx.doer(),
    ctx.params.collaborator,
  );
  ctx.send(200, { permission, role_name: permission, user: toUser(user, userView(ctx)) });
};
