// Who may be assigned or asked to review in a repository (Forgejo: routers/api/v1/repo/collaborators.go).
import { toUser } from '../../../convert/user.ts';
import type { Handler } from '../../route.ts';
import { userView } from '../../view.ts';

export const repoGetAssignees: Handler<'repoGetAssignees'> = async (ctx) => {
  const users = await ctx.app.services.repoCandidates.assignees(ctx.repo().repo);
  const view = userView(ctx);
  ctx.send(
    200,
    users.map((user) => toUser(user, view)),
  );
};

export const repoGetReviewers: Handler<'repoGetReviewers'> = async (ctx) => {
  const users = await ctx.app.services.repoCandidates.reviewers(ctx.repo().repo, ctx.doer());
  const view = userView(ctx);
  ctx.send(
    200,
    users.map((user) => toUser(user, view)),
  );
};
