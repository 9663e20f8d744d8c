// Files of a repository: read, write as commits, raw bytes (Forgejo: routers/api/v1/repo/file.go).
import { pipeline } from 'node:stream/promises';
import { toContents, toFileDeleteResponse, toFileResponse, toFilesResponse } from '../../../convert/repo-content.ts';
import type { RepoLinks } from '../../../convert/commit.ts';
import { BadRequestError } from '../../../domain/errors.ts';
import { sniffContentType } from '../../../lib/content-sniff.ts';
import { StaleShaError } from '../../../services/repo-file.service.ts';
import type { AnyRequestContext, Handler } from '../../route.ts';

export function repoLinks(ctx: AnyRequestContext): RepoLinks {
  const { repo } = ctx.repo();
  return { rootUrl: ctx.app.settings.server.ROOT_URL, ownerName: repo.ownerName, name: repo.name };
}

async function readContents(ctx: AnyRequestContext, path: string, ref: string | undefined) {
  const { ref: at, contents } = await ctx.app.services.repoContents.contents(ctx.repo().repo, path, ref);
  const links = repoLinks(ctx);
  return contents.kind === 'entry'
    ? toContents(contents.entry, at, links)
    : contents.entries.map((entry) => toContents(entry, at, links));
}

export const repoGetContentsList: Handler<'repoGetContentsList'> = async (ctx) => {
  const contents = await readContents(ctx, '', ctx.query.ref);
  ctx.send(200, Array.isArray(contents) ? contents : [contents]);
};

export const repoGetContents: Handler<'repoGetContents'> = async (ctx) => {
  ctx.send(200, await readContents(ctx, ctx.params.filepath, ctx.query.ref));
};

export const repoCreateFile: Handler<'repoCreateFile'> = async (ctx) => {
  const { content, new_branch: newBranch, ...rest } = ctx.body;
  const written = await ctx.app.services.repoFiles.change(ctx.doer(), ctx.repo().repo, {
    ...rest,
    newBranch,
    files: [{ operation: 'create', path: ctx.params.filepath, content }],
  });
  ctx.send(201, toFileResponse(written.commit, written.files[0], written.branch, repoLinks(ctx)));
};

export const repoUpdateFile: Handler<'repoUpdateFile'> = async (ctx) => {
  const { content, sha, from_path: fromPath, new_branch: newBranch, ...rest } = ctx.body;
  const written = await ctx.app.services.repoFiles.change(ctx.doer(), ctx.repo().repo, {
    ...rest,
    newBranch,
    files: [{ operation: 'update', path: ctx.params.filepath, content, sha, fromPath }],
  });
  ctx.send(200, toFileResponse(written.commit, written.files[0], written.branch, repoLinks(ctx)));
};

export const repoDeleteFile: Handler<'repoDeleteFile'> = async (ctx) => {
  const { sha, new_branch: newBranch, ...rest } = ctx.body;
  const changes = { ...rest, newBranch, files: [{ operation: 'delete' as const, path: ctx.params.filepath, sha }] };
  // Forgejo answers a stale sha on this route with 400, on the others with 422.
  const written = await ctx.app.services.repoFiles.change(ctx.doer(), ctx.repo().repo, changes).catch((error) => {
    throw error instanceof StaleShaError ? new BadRequestError(error.message) : error;
  });
  ctx.send(200, toFileDeleteResponse(written.commit, repoLinks(ctx)));
};

export const repoChangeFiles: Handler<'repoChangeFiles'> = async (ctx) => {
  const { files, new_branch: newBranch, ...rest } = ctx.body;
  const written = await ctx.app.services.repoFiles.change(ctx.doer(), ctx.repo().repo, {
    ...rest,
    newBranch,
    files: files.map((file) => ({ ...file, fromPath: file.from_path })),
  });
  ctx.send(201, toFilesResponse(written.commit, written.files, written.branch, repoLinks(ctx)));
};

async function sendRaw(ctx: AnyRequestContext, filepath: string, ref: string | undefined) {
  const { repoContents } = ctx.app.services;
  const { repo } = ctx.repo();
  const file = ref ? await repoContents.raw(repo, filepath, ref) : await repoContents.rawWithRefInPath(repo, filepath);
  ctx.res.setHeader('Content-Type', sniffContentType(file.bytes.subarray(0, 512)));
  ctx.res.setHeader('Content-Disposition', `inline; filename*=UTF-8''${encodeURIComponent(file.name)}`);
  ctx.res.setHeader('ETag', `"${file.sha}"`);
  ctx.res.setHeader('X-Content-Type-Options', 'nosniff');
  ctx.res.status(200).end(file.bytes);
}

export const repoGetRawFile: Handler<'repoGetRawFile'> = (ctx) => sendRaw(ctx, ctx.params.filepath, ctx.query.ref);

/** Anvil stores no LFS objects: the media route serves what is committed, as Forgejo does for a file not in LFS. */
export const repoGetRawFileOrLFS: Handler<'repoGetRawFileOrLFS'> = (ctx) =>
  sendRaw(ctx, ctx.params.filepath, ctx.query.ref);

export const repoGetArchive: Handler<'repoGetArchive'> = async (ctx) => {
  const archive = await ctx.app.services.repoContents.archive(ctx.repo().repo, ctx.params.archive);
  ctx.res.status(200);
  ctx.res.setHeader('Content-Type', archive.type);
  ctx.res.setHeader('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(archive.fileName)}`);
  await pipeline(archive.stream, ctx.res);
};

export const repoGetLanguages: Handler<'repoGetLanguages'> = async (ctx) => {
  ctx.send(200, await ctx.app.services.repoContents.languages(ctx.repo().repo));
};

export const repoGetEditorConfig: Handler<'repoGetEditorConfig'> = async (ctx) => {
  ctx.send(200, await ctx.app.services.repoContents.editorConfig(ctx.repo().repo, ctx.params.filepath, ctx.query.ref));
};
