// Releases and their attachments (Forgejo: routers/api/v1/repo/release.go, release_tags.go, release_attachment.go).
import { toAttachment, toRelease } from '../../../convert/release.ts';
import { canWriteUnit } from '../../../domain/access/repo-permission.ts';
import { UnitType } from '../../../domain/access/modes.ts';
import { BadRequestError } from '../../../domain/errors.ts';
import { multipartFile } from '../../../http/multipart-file.ts';
import { serveBlob } from '../../../http/serve-blob.ts';
import type { ReleaseView } from '../../../services/release.service.ts';
import type { AnyRequestContext, Handler } from '../../route.ts';
import { userView } from '../../view.ts';
import { repoLinks } from './contents.ts';

/** Drafts are seen by who may write releases (Forgejo: ctx.Repo.CanWrite(unit.TypeReleases)). */
function seeDrafts(ctx: AnyRequestContext): boolean {
  return (ctx.caller?.user.isAdmin ?? false) || canWriteUnit(ctx.repo().permission, UnitType.releases);
}

const present = (ctx: AnyRequestContext, view: ReleaseView) => toRelease(view, repoLinks(ctx), userView(ctx));

type ReleaseBody = { tag_name?: string; target_commitish?: string; name?: string; body?: string } & {
  draft?: boolean;
  prerelease?: boolean;
  hide_archive_links?: boolean;
};
const input = (body: ReleaseBody) => ({
  tagName: body.tag_name,
  target: body.target_commitish,
  title: body.name,
  note: body.body,
  isDraft: body.draft,
  isPrerelease: body.prerelease,
  hideArchiveLinks: body.hide_archive_links,
});

export const repoListReleases: Handler<'repoListReleases'> = async (ctx) => {
  const page = ctx.listOptions();
  const { draft, 'pre-release': prerelease, q } = ctx.query;
  const filter = { includeDrafts: seeDrafts(ctx), draft, prerelease, q };
  const { releases, total } = await ctx.app.services.releases.list(ctx.repo().repo, filter, page);
  ctx.sendPage(
    200,
    releases.map((view) => present(ctx, view)),
    page,
    total,
  );
};

export const repoGetRelease: Handler<'repoGetRelease'> = async (ctx) => {
  ctx.send(200, present(ctx, await ctx.app.services.releases.get(ctx.repo().repo, ctx.params.id, seeDrafts(ctx))));
};

export const repoGetLatestRelease: Handler<'repoGetLatestRelease'> = async (ctx) => {
  ctx.send(200, present(ctx, await ctx.app.services.releases.latest(ctx.repo().repo)));
};

export const repoGetReleaseByTag: Handler<'repoGetReleaseByTag'> = async (ctx) => {
  const view = await ctx.app.services.releases.byTag(ctx.repo().repo, ctx.params.tag, seeDrafts(ctx));
  ctx.send(200, present(ctx, view));
};

export const repoCreateRelease: Handler<'repoCreateRelease'> = async (ctx) => {
  const view = await ctx.app.services.releases.create(ctx.doer(), ctx.repo().repo, input(ctx.body));
  ctx.send(201, present(ctx, view));
};

export const repoEditRelease: Handler<'repoEditRelease'> = async (ctx) => {
  const view = await ctx.app.services.releases.edit(ctx.doer(), ctx.repo().repo, ctx.params.id, input(ctx.body));
  ctx.send(200, present(ctx, view));
};

export const repoDeleteRelease: Handler<'repoDeleteRelease'> = async (ctx) => {
  await ctx.app.services.releases.delete(ctx.doer(), ctx.repo().repo, ctx.params.id);
  ctx.send(204);
};

export const repoDeleteReleaseByTag: Handler<'repoDeleteReleaseByTag'> = async (ctx) => {
  await ctx.app.services.releases.deleteByTag(ctx.doer(), ctx.repo().repo, ctx.params.tag);
  ctx.send(204);
};

export const repoListReleaseAttachments: Handler<'repoListReleaseAttachments'> = async (ctx) => {
  const { releases } = ctx.app.services;
  const view = await releases.get(ctx.repo().repo, ctx.params.id, seeDrafts(ctx));
  ctx.send(
    200,
    view.attachments.map((row) => toAttachment(row, view.release.tagName, repoLinks(ctx))),
  );
};

export const repoGetReleaseAttachment: Handler<'repoGetReleaseAttachment'> = async (ctx) => {
  const { repo } = ctx.repo();
  const view = await ctx.app.services.releases.get(repo, ctx.params.id, seeDrafts(ctx));
  const row = await ctx.app.services.releases.attachment(repo, ctx.params.id, ctx.params.attachment_id, true);
  ctx.send(200, toAttachment(row, view.release.tagName, repoLinks(ctx)));
};

/** A multipart form (field `attachment`) or the bytes themselves with `?name=`; streamed, never buffered whole. */
export const repoCreateReleaseAttachment: Handler<'repoCreateReleaseAttachment'> = async (ctx) => {
  const { repo } = ctx.repo();
  const view = await ctx.app.services.releases.get(repo, ctx.params.id, true);
  const multipart = /^multipart\/form-data/i.test(ctx.req.headers['content-type'] ?? '');
  const file = multipart
    ? await multipartFile(ctx.req, 'attachment')
    : { fileName: '', stream: ctx.req, fields: new Map<string, string>() };
  const name = ctx.query.name || file.fileName;
  if (!name) throw new BadRequestError('the attachment has no name: give ?name= or a file name');
  const announced = multipart ? undefined : Number(ctx.req.headers['content-length']) || undefined;
  try {
    const row = await ctx.app.services.releases.upload(ctx.doer(), repo, view.release.id, {
      name,
      body: file.stream,
      announcedLength: announced,
    });
    ctx.send(201, toAttachment(row, view.release.tagName, repoLinks(ctx)));
  } catch (error) {
    // The rest of a refused body is not read, so the connection cannot carry another request.
    if (!ctx.req.readableEnded) ctx.res.setHeader('Connection', 'close');
    throw error;
  }
};

export const repoEditReleaseAttachment: Handler<'repoEditReleaseAttachment'> = async (ctx) => {
  const { repo } = ctx.repo();
  const view = await ctx.app.services.releases.get(repo, ctx.params.id, true);
  const { releases } = ctx.app.services;
  const { id, attachment_id: attachmentId } = ctx.params;
  const row = ctx.body.name
    ? await releases.renameAttachment(repo, id, attachmentId, ctx.body.name)
    : await releases.attachment(repo, id, attachmentId, true);
  ctx.send(201, toAttachment(row, view.release.tagName, repoLinks(ctx)));
};

export const repoDeleteReleaseAttachment: Handler<'repoDeleteReleaseAttachment'> = async (ctx) => {
  await ctx.app.services.releases.deleteAttachment(ctx.repo().repo, ctx.params.id, ctx.params.attachment_id);
  ctx.send(204);
};

export const repoDownloadReleaseAttachment: Handler<'repoDownloadReleaseAttachment'> = async (ctx) => {
  const { repo } = ctx.repo();
  const { tag, filename } = ctx.params;
  const { attachment, store } = await ctx.app.services.releases.download(repo, { tag, name: filename }, seeDrafts(ctx));
  await serveBlob(ctx.req, ctx.res, {
    size: Number(attachment.size),
    sha256: attachment.blobKey,
    lastModified: attachment.createdAt,
    fileName: attachment.name,
    store,
    key: attachment.blobKey,
  });
};
