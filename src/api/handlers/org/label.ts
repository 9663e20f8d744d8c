import { toOrgLabel } from '../../../convert/label.ts';
import { parseLabelSort } from '../../../domain/label.ts';
import type { Handler } from '../../route.ts';

export const orgListLabels: Handler<'orgListLabels'> = async (ctx) => {
  const page = ctx.listOptions();
  // `sort` is read by Forgejo's handler although the contract does not list it.
  const sort = parseLabelSort(ctx.req.query.sort);
  const { org, items, total } = await ctx.app.services.orgLabels.list(ctx.org(), sort, page);
  ctx.sendPage(
    200,
    items.map((label) => toOrgLabel(label, org, ctx.app.settings.server.ROOT_URL)),
    page,
    total,
  );
};

export const orgCreateLabel: Handler<'orgCreateLabel'> = async (ctx) => {
  const { org, label } = await ctx.app.services.orgLabels.create(ctx.org(), ctx.body);
  ctx.send(201, toOrgLabel(label, org, ctx.app.settings.server.ROOT_URL));
};

export const orgGetLabel: Handler<'orgGetLabel'> = async (ctx) => {
  const { org, label } = await ctx.app.services.orgLabels.get(ctx.org(), String(ctx.params.id));
  ctx.send(200, toOrgLabel(label, org, ctx.app.settings.server.ROOT_URL));
};

export const orgEditLabel: Handler<'orgEditLabel'> = async (ctx) => {
  const { org, label } = await ctx.app.services.orgLabels.edit(ctx.org(), ctx.params.id, ctx.body);
  ctx.send(200, toOrgLabel(label, org, ctx.app.settings.server.ROOT_URL));
};

export const orgDeleteLabel: Handler<'orgDeleteLabel'> = async (ctx) => {
  await ctx.app.services.orgLabels.delete(ctx.org(), ctx.params.id);
  ctx.send(204);
};
