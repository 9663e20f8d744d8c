// Instance-wide Actions runners (Forgejo: routers/api/v1/admin/runners.go).
import { INSTANCE_SCOPE } from '../../../domain/action-scope.ts';
import type { Handler } from '../../route.ts';

export const adminGetRunnerRegistrationToken: Handler<'adminGetRunnerRegistrationToken'> = async (ctx) => {
  ctx.send(200, { token: await ctx.app.services.runnerTokens.registrationToken(INSTANCE_SCOPE) });
};
