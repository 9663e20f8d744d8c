// Topics of a repository (Forgejo: routers/api/v1/repo/topic.go).
import { toTopicResponse } from '../../../convert/topic.ts';
import type { Handler } from '../../route.ts';

export const repoListTopics: Handler<'repoListTopics'> = (ctx) => {
  const page = ctx.listOptions();
  const { items, total } = ctx.app.services.repoTopics.list(ctx.repo().repo, page);
  ctx.sendPage(200, { topics: items }, page, total);
};

export const repoUpdateTopics: Handler<'repoUpdateTopics'> = async (ctx) => {
  await ctx.app.services.repoTopics.replace(ctx.repo().repo, ctx.body?.topics ?? []);
  ctx.send(204);
};

export const repoAddTopic: Handler<'repoAddTopic'> = async (ctx) => {
  await ctx.app.services.repoTopics.add(ctx.repo().repo, ctx.params.topic);
  ctx.send(204);
};

export const repoDeleteTopic: Handler<'repoDeleteTopic'> = async (ctx) => {
  await ctx.app.services.repoTopics.remove(ctx.repo().repo, ctx.params.topic);
  ctx.send(204);
};

export const topicSearch: Handler<'topicSearch'> = async (ctx) => {
  const page = ctx.listOptions();
  const { topics, total } = await ctx.app.services.repoTopics.search(ctx.query.q ?? '', page);
  ctx.sendPage(200, { topics: topics.map(toTopicResponse) }, page, total);
};
