// Administration of users (Forgejo: routers/api/v1/admin/user.go).
import { toUser } from '../../../convert/user.ts';
import type { UserSort } from '../../../services/user.service.ts';
import type { AnyRequestContext, Handler } from '../../route.ts';
import { userView } from '../../view.ts';

/** Forgejo sends X-Gitea-Warning; X-Service-Warning is the name the contract documents. */
function sendWarning(ctx: AnyRequestContext, warning: string | null): void {
  if (!warning) return;
  ctx.res.setHeader('X-Service-Warning', warning);
  ctx.res.setHeader('X-Gitea-Warning', warning);
}

export const adminCreateUser: Handler<'adminCreateUser'> = async (ctx) => {
  const body = ctx.body;
  const { value: user, warning } = await ctx.app.services.users.createWithWarning({
    username: body.username,
    email: body.email,
    password: body.password ?? '',
    fullName: body.full_name,
    mustChangePassword: body.must_change_password,
    loginName: body.login_name,
    sourceId: body.source_id,
    restricted: body.restricted,
    visibility: body.visibility,
    createdAt: body.created_at ? new Date(body.created_at) : undefined,
    sendNotify: body.send_notify,
  });
  sendWarning(ctx, warning);
  ctx.send(201, toUser(user, userView(ctx)));
};

export const adminEditUser: Handler<'adminEditUser'> = async (ctx) => {
  const { users } = ctx.app.services;
  const body = ctx.body ?? {};
  const target = ctx.user();
  const { value: user, warning } = await users.edit(target, {
    sourceId: body.source_id,
    loginName: body.login_name,
    password: body.password,
    mustChangePassword: body.must_change_password,
    prohibitLogin: body.prohibit_login,
    email: body.email,
    fullName: body.full_name,
    website: body.website,
    location: body.location,
    description: body.description,
    pronouns: body.pronouns,
    active: body.active,
    admin: body.admin,
    visibility: body.visibility,
    allowGitHook: body.allow_git_hook,
    allowImportLocal: body.allow_import_local,
    maxRepoCreation: body.max_repo_creation,
    allowCreateOrganization: body.allow_create_organization,
    restricted: body.restricted,
  });
  sendWarning(ctx, warning);
  ctx.send(200, toUser(user, userView(ctx)));
};

export const adminDeleteUser: Handler<'adminDeleteUser'> = async (ctx) => {
  const { users } = ctx.app.services;
  const target = ctx.user();
  await users.delete(ctx.doer(), target, String(ctx.query.purge) === 'true');
  ctx.send(204);
};

export const adminRenameUser: Handler<'adminRenameUser'> = async (ctx) => {
  const { users } = ctx.app.services;
  const target = ctx.user();
  await users.rename(target, ctx.body.new_username);
  ctx.send(204);
};

export const adminSearchUsers: Handler<'adminSearchUsers'> = async (ctx) => {
  const page = ctx.listOptions();
  const sourceId = ctx.query.source_id;
  const { users, total } = await ctx.app.services.users.search(
    {
      sourceId: sourceId === undefined || String(sourceId) === '' ? undefined : Number(sourceId),
      loginName: ctx.query.login_name,
      sort: ctx.query.sort as UserSort | undefined,
    },
    page,
  );
  const view = userView(ctx);
  ctx.sendPage(
    200,
    users.map((user) => toUser(user, view)),
    page,
    total,
  );
};
