import { isPublicOnly } from '../../../auth/caller.ts';
import { toActivity } from '../../../convert/activity.ts';
import { toOrganization } from '../../../convert/org.ts';
import type { Handler } from '../../route.ts';
import { userView } from '../../view.ts';

export const orgGetAll: Handler<'orgGetAll'> = async (ctx) => {
  const page = ctx.listOptions();
  const { items, total } = await ctx.app.services.orgs.listVisible(ctx.caller, page);
  ctx.sendPage(
    200,
    items.map((org) => toOrganization(org, userView(ctx))),
    page,
    total,
  );
};

export const orgCreate: Handler<'orgCreate'> = async (ctx) => {
  const org = await ctx.app.services.orgs.create(ctx.caller!, ctx.body);
  ctx.send(201, toOrganization(org, userView(ctx)));
};

export const orgGet: Handler<'orgGet'> = async (ctx) => {
  const org = ctx.org();
  ctx.send(200, toOrganization(org, userView(ctx)));
};

export const orgEdit: Handler<'orgEdit'> = async (ctx) => {
  const org = await ctx.app.services.orgs.edit(ctx.org(), ctx.body);
  ctx.send(200, toOrganization(org, userView(ctx)));
};

export const orgDelete: Handler<'orgDelete'> = async (ctx) => {
  await ctx.app.services.orgs.delete(ctx.org());
  ctx.send(204);
};

export const orgListCurrentUserOrgs: Handler<'orgListCurrentUserOrgs'> = async (ctx) => {
  const page = ctx.listOptions();
  const { items, total } = await ctx.app.services.orgs.listOfUser(ctx.caller, ctx.doer(), page);
  ctx.sendPage(
    200,
    items.map((org) => toOrganization(org, userView(ctx))),
    page,
    total,
  );
};

export const orgListUserOrgs: Handler<'orgListUserOrgs'> = async (ctx) => {
  const page = ctx.listOptions();
  const { items, total } = await ctx.app.services.orgs.listOfUser(ctx.caller, ctx.user(), page);
  ctx.sendPage(
    200,
    items.map((org) => toOrganization(org, userView(ctx))),
    page,
    total,
  );
};

export const orgGetUserPermissions: Handler<'orgGetUserPermissions'> = async (ctx) => {
  ctx.send(200, await ctx.app.services.orgs.permissionsOf(ctx.user(), ctx.org()));
};

export const orgListActivityFeeds: Handler<'orgListActivityFeeds'> = async (ctx) => {
  const page = ctx.listOptions();
  const viewer = ctx.caller?.user ?? null;
  const { orgFeeds } = ctx.app.services;
  const { items, total } = await orgFeeds.list(viewer, isPublicOnly(ctx.caller), ctx.org(), ctx.query.date, page);
  ctx.sendPage(
    200,
    items.map((entry) => toActivity(entry, userView(ctx))),
    page,
    total,
  );
};
