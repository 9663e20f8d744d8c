// GET /activitypub/user-id/{user-id} and POST …/inbox (Forgejo: routers/api/v1/activitypub/person.go).
import { ACTIVITY_STREAMS_CONTENT_TYPE, toPerson } from '../../../convert/activitypub-person.ts';
import { clientGoneSignal } from '../../../http/client-gone.ts';
import type { Handler } from '../../route.ts';

export const activitypubPerson: Handler<'activitypubPerson'> = async (ctx) => {
  const { user, publicKeyPem } = await ctx.app.services.activityPub.person(ctx.params.userId);
  ctx.res.setHeader('Content-Type', ACTIVITY_STREAMS_CONTENT_TYPE);
  ctx.send(200, toPerson(ctx.app.settings.server.ROOT_URL, user, publicKeyPem));
};

export const activitypubPersonInbox: Handler<'activitypubPersonInbox'> = async (ctx) => {
  const { req } = ctx;
  await ctx.app.services.activityPub.receive(
    {
      method: req.method,
      url: req.originalUrl,
      headers: req.headers,
      body: req.rawBody ?? Buffer.alloc(0),
    },
    clientGoneSignal(ctx.res),
  );
  ctx.send(204);
};
