// GET /nodeinfo and its discovery document /.well-known/nodeinfo (Forgejo: routers/api/v1/misc/nodeinfo.go,
// routers/web/webfinger.go).
import { toNodeInfo, toNodeInfoLinks } from '../../../convert/nodeinfo.ts';
import type { Handler } from '../../route.ts';

export const getNodeInfo: Handler<'getNodeInfo'> = async (ctx) => {
  ctx.send(200, toNodeInfo(await ctx.app.services.nodeInfo.facts()));
};

export const getNodeInfoLinks: Handler<'getNodeInfoLinks'> = (ctx) => {
  ctx.send(200, toNodeInfoLinks(ctx.app.settings.server.ROOT_URL));
};
