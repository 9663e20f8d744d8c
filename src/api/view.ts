// What converters need to know about the request: the public root URL and who is looking.
import type { UserView } from '../convert/user.ts';
import type { AnyRequestContext } from './route.ts';

export function userView(ctx: AnyRequestContext): UserView {
  return {
    rootUrl: ctx.app.settings.server.ROOT_URL,
    noReplyAddress: ctx.app.settings.service.NO_REPLY_ADDRESS,
    viewer: ctx.caller?.user ?? null,
  };
}
