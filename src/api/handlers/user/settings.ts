// The caller's own settings (Forgejo: routers/api/v1/user/settings.go).
import type { Handler } from '../../route.ts';

export const getUserSettings: Handler<'getUserSettings'> = async (ctx) => {
  ctx.send(200, await ctx.app.services.userSettings.get(ctx.doer()));
};

export const updateUserSettings: Handler<'updateUserSettings'> = async (ctx) => {
  ctx.send(200, await ctx.app.services.userSettings.update(ctx.doer(), ctx.body ?? {}));
};
