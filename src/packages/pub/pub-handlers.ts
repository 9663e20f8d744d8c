// The pub registry's handlers, in the order `dart pub publish` and `dart pub get` call them: the upload target,
// the upload (answered with the finalize step's address), the finalize step; a package's document, a version,
// and the archive. Each is one service call and an answer in the pub API's JSON.
import { sendIndexDocument } from '../core/index-document.ts';
import type { RegistryContext } from '../core/registry-context.ts';
import { uploadedFile } from '../core/upload-body.ts';
import { PUB_JSON, versionDocument } from './pub-documents.ts';
import { servePackageDownload } from '../core/serve-download.ts';

function sendJson(ctx: RegistryContext, status: number, body: unknown): void {
  ctx.res.status(status).type(PUB_JSON).send(JSON.stringify(body));
}

/** GET api/packages/versions/new: where to post the archive, and with no extra fields. */
export async function requestUpload(ctx: RegistryContext): Promise<void> {
  sendJson(ctx, 200, { url: `${ctx.registryUrl()}/api/packages/versions/new/upload`, fields: {} });
}

/** POST api/packages/versions/new/upload: the archive as the form's file; 204 pointing at the finalize step. */
export async function uploadArchive(ctx: RegistryContext): Promise<void> {
  const { name, version } = await ctx.app.services.pub.upload(ctx.doer(), ctx.owner(), await uploadedFile(ctx.req));
  const finalize = [name, version].map(encodeURIComponent).join('/');
  ctx.res.setHeader('Location', `${ctx.registryUrl()}/api/packages/versions/new/finalize/${finalize}`);
  ctx.res.status(204).end();
}

export async function finalizeUpload(ctx: RegistryContext): Promise<void> {
  await ctx.app.services.pub.assertVersion(ctx.owner(), ctx.param('name'), ctx.param('version'));
  sendJson(ctx, 200, { success: { message: `${ctx.param('name')} ${ctx.param('version')} has been published` } });
}

export async function getPackage(ctx: RegistryContext): Promise<void> {
  const document = await ctx.app.services.pub.packageDocument(ctx.owner(), ctx.param('name'), ctx.registryUrl());
  sendIndexDocument(ctx.req, ctx.res, document, PUB_JSON);
}

export async function getVersion(ctx: RegistryContext): Promise<void> {
  const found = await ctx.app.services.pub.version(ctx.owner(), ctx.param('name'), ctx.param('version'));
  sendJson(ctx, 200, versionDocument(ctx.registryUrl(), found.name, found.version));
}

export async function downloadArchive(ctx: RegistryContext): Promise<void> {
  const file = await ctx.app.services.pub.archive(ctx.owner(), ctx.param('name'), ctx.param('version'));
  await servePackageDownload(ctx, file);
}
