import { toOrgLabel } from '../../../convert/label.ts';
import { parseLabelSort } from '../../../domain/label.ts';
import type { Handler } from '../../route.ts';

export const orgListLabels: Handler<'orgListLabels'> = async (ctx) => {
  const page = ctx.listOptions();
  // `sort` is read by Forgejo's handler although the contract does not list it.
  const sort = parseLabelSort(ctx.req.query.sort);
  const org = ctx.org();
  const { items, total } = await ctx.app.services.labels.list({ orgId: org.id }, sort, page);
  ctx.sendPage(
    200,
    items.map((label) => toOrgLabel(label, org, ctx.app.settings.server.ROOT_URL)),
    page,
    total,
  );
};

export const orgCreateLabel: Handler<'orgCreateLabel'> = async (ctx) => {
  const org = ctx.org();
  const label = await ctx.app.services.labels.create({ orgId: org.id }, ctx.body);
  ctx.send(201, toOrgLabel(label, org, ctx.app.settings.server.ROOT_URL));
};

export const orgGetLabel: Handler<'orgGetLabel'> = async (ctx) => {
  const org = ctx.org();
  const label = await ctx.app.services.labels.get({ orgId: org.id }, String(ctx.params.id));
  ctx.send(200, toOrgLabel(label, org, ctx.app.settings.server.ROOT_URL));
};

export const orgEditLabel: Handler<'orgEditLabel'> = async (ctx) => {
  const org = ctx.org();
  const label = await ctx.app.services.labels.edit({ orgId: org.id }, ctx.params.id, ctx.body);
  ctx.send(200, toOrgLabel(label, org, ctx.app.settings.server.ROOT_URL));
};

export const orgDeleteLabel: Handler<'orgDeleteLabel'> = async (ctx) => {
  await ctx.app.services.labels.delete({ orgId: ctx.org().id }, ctx.params.id);
  ctx.send(204);
};
