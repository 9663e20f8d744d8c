// The Vagrant registry's handlers (Forgejo: routers/api/packages/vagrant/vagrant.go): the box's metadata document
// (JSON, which `vagrant box add` tells from a box by a HEAD's Content-Type), box upload and download, and the
// token check of `vagrant cloud auth`.
import { serveStoredFile } from '../../http/serve-blob.ts';
import type { RegistryContext } from '../core/registry-context.ts';
import { sendIndexDocument } from '../core/index-document.ts';

function service(ctx: RegistryContext) {
  return ctx.app.services.vagrant;
}

/** GET /authenticate: 200 for a signed-in caller (the route's guard answers 401 otherwise). */
export function checkAuthenticate(ctx: RegistryContext): Promise<void> {
  ctx.res.status(200).end();
  return Promise.resolve();
}

export async function boxMetadata(ctx: RegistryContext): Promise<void> {
  const name = ctx.param('name');
  const boxUrl = `${ctx.registryUrl()}/${encodeURIComponent(name)}`;
  const document = await service(ctx).document(ctx.owner(), name, boxUrl);
  sendIndexDocument(ctx.req, ctx.res, document, 'application/json');
}

/** PUT /{name}/{version}/{provider}.box: the box itself is the body. */
export async function uploadBox(ctx: RegistryContext): Promise<void> {
  const length = Number(ctx.req.headers['content-length']);
  await service(ctx).upload(ctx.doer(), ctx.owner(), {
    name: ctx.param('name'),
    version: ctx.param('version'),
    providerFile: ctx.param('provider'),
    body: ctx.req,
    announcedLength: Number.isSafeInteger(length) && length >= 0 ? length : undefined,
  });
  ctx.res.status(201).end();
}

export async function downloadBox(ctx: RegistryContext): Promise<void> {
  const file = await service(ctx).file(ctx.owner(), ctx.param('name'), ctx.param('version'), ctx.param('provider'));
  await serveStoredFile(ctx.req, ctx.res, file, ctx.app.services.packages);
}
