// Tags of a repository (Forgejo: routers/api/v1/repo/tag.go).
import { toTag } from '../../../convert/git-ref.ts';
import type { Handler } from '../../route.ts';

export const repoListTags: Handler<'repoListTags'> = async (ctx) => {
  const page = ctx.listOptions();
  const { repo } = ctx.repo();
  const { items: tags, total } = await ctx.app.services.repoTags.list(repo, page);
  ctx.sendPage(
    200,
    tags.map((tag) => toTag(tag, ctx.app.settings.server.ROOT_URL, repo)),
    page,
    total,
  );
};

export const repoGetTag: Handler<'repoGetTag'> = async (ctx) => {
  const { repo } = ctx.repo();
  ctx.send(
    200,
    toTag(await ctx.app.services.repoTags.get(repo, ctx.params.tag), ctx.app.settings.server.ROOT_URL, repo),
  );
};

export const repoCreateTag: Handler<'repoCreateTag'> = async (ctx) => {
  const { repo } = ctx.repo();
  const { tag_name: name, target, message } = ctx.body;
  const tag = await ctx.app.services.repoTags.create(ctx.doer(), repo, { name, target, message });
  ctx.send(201, toTag(tag, ctx.app.settings.server.ROOT_URL, repo));
};

export const repoDeleteTag: Handler<'repoDeleteTag'> = async (ctx) => {
  await ctx.app.services.repoTags.delete(ctx.doer(), ctx.repo().repo, ctx.params.tag);
  ctx.send(204);
};
