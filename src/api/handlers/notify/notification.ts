// The caller's notification threads (Forgejo: routers/api/v1/notify/user.go, repo.go, threads.go).
import { isPublicOnly } from '../../../auth/caller.ts';
import { toNotificationThreads } from '../../../convert/notification.ts';
import { formBool } from '../../../domain/notification.ts';
import type { ThreadDetails } from '../../../services/notification.service.ts';
import type { AnyRequestContext, Handler, RequestContext } from '../../route.ts';
import { userView } from '../../view.ts';

type ListOp = 'notifyGetList' | 'notifyGetRepoList';
type MarkOp = 'notifyReadList' | 'notifyReadRepoList';

/** The caller as a reader of threads: what it may see is decided by the notification service. */
function reader(ctx: AnyRequestContext) {
  return { user: ctx.doer(), publicOnly: isPublicOnly(ctx.caller) };
}

function present(ctx: AnyRequestContext, threads: ThreadDetails[]) {
  return toNotificationThreads(threads, userView(ctx));
}

async function list(ctx: RequestContext<ListOp>, repoId?: number) {
  const page = ctx.listOptions();
  const query = ctx.query;
  const { items, total } = await ctx.app.services.notifications.list(
    reader(ctx),
    {
      all: query.all,
      statusTypes: query['status-types'],
      subjectTypes: query['subject-type'],
      since: query.since,
      before: query.before,
    },
    page,
    repoId,
  );
  ctx.sendPage(200, present(ctx, items), page, total);
}

async function mark(ctx: RequestContext<MarkOp>, repoId?: number) {
  const query = ctx.query;
  const changed = await ctx.app.services.notifications.markMany(
    reader(ctx),
    {
      lastReadAt: query.last_read_at,
      all: formBool(query.all),
      statusTypes: query['status-types'],
      toStatus: query['to-status'],
    },
    repoId,
  );
  ctx.send(205, present(ctx, changed));
}

export const notifyGetList: Handler<'notifyGetList'> = (ctx) => list(ctx);
export const notifyGetRepoList: Handler<'notifyGetRepoList'> = (ctx) => list(ctx, ctx.repo().repo.id);
export const notifyReadList: Handler<'notifyReadList'> = (ctx) => mark(ctx);
export const notifyReadRepoList: Handler<'notifyReadRepoList'> = (ctx) => mark(ctx, ctx.repo().repo.id);

export const notifyNewAvailable: Handler<'notifyNewAvailable'> = async (ctx) => {
  ctx.send(200, { new: await ctx.app.services.notifications.countUnread(reader(ctx)) });
};

export const notifyGetThread: Handler<'notifyGetThread'> = async (ctx) => {
  const thread = await ctx.app.services.notifications.get(reader(ctx), ctx.params.id);
  ctx.send(200, present(ctx, [thread])[0]);
};

export const notifyReadThread: Handler<'notifyReadThread'> = async (ctx) => {
  const thread = await ctx.app.services.notifications.mark(reader(ctx), ctx.params.id, ctx.query['to-status']);
  ctx.send(205, present(ctx, [thread])[0]);
};
