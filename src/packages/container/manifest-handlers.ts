// Manifest, tag list and referrers end points of the OCI distribution spec, thin over ContainerManifestService.
import type { Request } from 'express';
import type { Descriptor } from './manifest-document.ts';
import { MediaType } from './manifest-document.ts';
import { manifestInvalid, manifestUnknown } from './oci-error.ts';
import type { RegistryRequest } from './registry-request.ts';

/** Forgejo's largest manifest (the spec says registries should take at least 4 MiB). */
const MAX_MANIFEST_BYTES = 10 * 1024 * 1024;

async function readManifestBody(req: Request): Promise<Buffer> {
  if (Number(req.headers['content-length']) > MAX_MANIFEST_BYTES)
    throw manifestInvalid('the manifest is too large', 413);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_MANIFEST_BYTES) throw manifestInvalid('the manifest is too large', 413);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

export async function putManifest(ctx: RegistryRequest, reference: string): Promise<void> {
  const target = await ctx.image('write');
  let body: Buffer;
  try {
    body = await readManifestBody(ctx.req);
  } catch (error) {
    ctx.res.setHeader('Connection', 'close');
    throw error;
  }
  const pushed = await ctx.app.containerManifests.push(
    ctx.doer(),
    target,
    reference,
    body,
    ctx.req.headers['content-type'],
  );
  const { res } = ctx;
  res.setHeader('Location', `/v2/${ctx.name}/manifests/${pushed.digest}`);
  res.setHeader('Docker-Content-Digest', pushed.digest);
  if (pushed.subject) res.setHeader('OCI-Subject', pushed.subject);
  res.setHeader('Content-Length', '0');
  res.status(201).end();
}

/** Whether an Accept header takes the media type (no header, or a wildcard, takes everything). */
function accepts(header: string | undefined, mediaType: string): boolean {
  if (!header) return true;
  const types = header
    .split(',')
    .map((item) => item.split(';')[0].trim().toLowerCase())
    .filter((item) => item);
  return types.length === 0 || types.some((type) => type === '*/*' || type === 'application/*' || type === mediaType);
}

/** GET and HEAD of a manifest by tag or digest; a client that accepts none of its type is told it is unknown. */
export async function getManifest(ctx: RegistryRequest, reference: string): Promise<void> {
  const target = await ctx.image('read');
  const manifests = ctx.app.containerManifests;
  const manifest = await manifests.find(target, reference);
  if (!accepts(ctx.req.headers.accept, manifest.mediaType)) throw manifestUnknown(reference);
  const { res } = ctx;
  res.setHeader('Content-Type', manifest.mediaType);
  res.setHeader('Content-Length', String(manifest.size));
  res.setHeader('Docker-Content-Digest', manifest.digest);
  res.setHeader('ETag', `"${manifest.digest}"`);
  res.status(200);
  res.end(ctx.req.method === 'HEAD' ? undefined : await manifests.bytes(manifest));
}

export async function deleteManifest(ctx: RegistryRequest, reference: string): Promise<void> {
  const target = await ctx.image('write');
  await ctx.app.containerManifests.delete(target, reference);
  ctx.res.setHeader('Content-Length', '0');
  ctx.res.status(202).end();
}

/** `n` of a tag list: absent means all (bounded), not a count is invalid. */
const ALL_TAGS = 10_000;

/** GET …/tags/list?n=&last=: tags in order, with a Link to the next page when there is one. */
export async function listTags(ctx: RegistryRequest): Promise<void> {
  const target = await ctx.image('read');
  const { n, last } = ctx.req.query;
  const limit = typeof n === 'string' && /^\d+$/.test(n) ? Math.min(Number(n), ALL_TAGS) : ALL_TAGS;
  const after = typeof last === 'string' ? last : '';
  const { tags, more } = await ctx.app.containerManifests.tags(target, limit, after);
  if (more && tags.length > 0) {
    const next = new URLSearchParams({ n: String(limit), last: tags[tags.length - 1] });
    ctx.res.setHeader('Link', `</v2/${ctx.name}/tags/list?${next.toString()}>; rel="next"`);
  }
  ctx.res.status(200).json({ name: ctx.name, tags });
}

/** GET …/referrers/{digest}?artifactType=: an image index of the manifests that name the digest as subject. */
export async function listReferrers(ctx: RegistryRequest, digest: string): Promise<void> {
  const target = await ctx.image('read');
  const { artifactType } = ctx.req.query;
  const filter = typeof artifactType === 'string' && artifactType !== '' ? artifactType : undefined;
  const manifests: Descriptor[] = await ctx.app.containerManifests.referrers(target, digest, filter);
  if (filter) ctx.res.setHeader('OCI-Filters-Applied', 'artifactType');
  ctx.res.setHeader('Content-Type', MediaType.ociIndex);
  ctx.res.status(200).end(JSON.stringify({ schemaVersion: 2, mediaType: MediaType.ociIndex, manifests }));
}
