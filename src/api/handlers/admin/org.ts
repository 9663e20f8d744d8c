import { toOrganization } from '../../../convert/org.ts';
import type { Handler } from '../../route.ts';
import { userView } from '../../view.ts';

export const adminGetAllOrgs: Handler<'adminGetAllOrgs'> = async (ctx) => {
  const page = ctx.listOptions();
  const { items, total } = await ctx.app.services.orgs.listAll(page);
  ctx.sendPage(
    200,
    items.map((org) => toOrganization(org, userView(ctx))),
    page,
    total,
  );
};

export const adminCreateOrg: Handler<'adminCreateOrg'> = async (ctx) => {
  const org = await ctx.app.services.orgs.createForUser(ctx.user(), ctx.body);
  ctx.send(201, toOrganization(org, userView(ctx)));
};
