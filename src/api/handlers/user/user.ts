import { toUser } from '../../../convert/user.ts';
import type { Handler } from '../../route.ts';
import { userView } from '../../view.ts';

export const userGetCurrent: Handler<'userGetCurrent'> = (ctx) => {
  ctx.send(200, toUser(ctx.doer(), userView(ctx)));
};
