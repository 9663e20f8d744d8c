// The Helm registry's handlers: chart upload (the helm-push plugin's POST, or any client posting the .tgz),
// index.yaml, and chart downloads. Each is one service call and an answer in Helm's form.
import { serveStoredFile } from '../../http/serve-blob.ts';
import { sendIndexDocument } from '../core/index-document.ts';
import type { RegistryContext } from '../core/registry-context.ts';
import { uploadedFile } from '../core/upload-body.ts';

export async function uploadChart(ctx: RegistryContext): Promise<void> {
  await ctx.app.services.helm.upload(ctx.doer(), ctx.owner(), await uploadedFile(ctx.req));
  ctx.res.status(201).json({ saved: true });
}

export async function getIndex(ctx: RegistryContext): Promise<void> {
  const base = ctx.registryUrl();
  const document = await ctx.app.services.helm.index(ctx.owner(), base, new URL(base).pathname);
  sendIndexDocument(ctx.req, ctx.res, document, 'application/x-yaml; charset=utf-8');
}

export async function downloadChart(ctx: RegistryContext): Promise<void> {
  const file = await ctx.app.services.helm.file(ctx.owner(), ctx.param('filename'));
  await serveStoredFile(ctx.req, ctx.res, file, ctx.app.services.packages);
}
