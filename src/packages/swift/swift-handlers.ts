// The Swift registry's handlers (SE-0292 section 4): releases, release metadata, manifests, source archives,
// identifiers by URL, publish, and the login check. Every answer carries `Content-Version: 1`; failures are problem
// details (RFC 7807).
import type { Response } from 'express';
import { UnauthorizedError, BadRequestError } from '../../domain/errors.ts';
import { serveStoredFile } from '../../http/serve-blob.ts';
import type { RegistryContext } from '../core/registry-context.ts';
import type { RegistryGuard } from '../core/registry-route.ts';
import { packageId, trimmedSwiftVersion } from './swift-names.ts';
import { releaseMetadata } from './swift-metadata.ts';
import { readSwiftUpload } from './swift-upload.ts';

export const SWIFT_JSON = 'application/vnd.swift.registry.v1+json';
export const SWIFT_ZIP = 'application/vnd.swift.registry.v1+zip';
export const SWIFT_SOURCE = 'application/vnd.swift.registry.v1+swift';

export function sendSwiftProblem(res: Response, status: number, message: string): void {
  res.setHeader('Content-Version', '1');
  res.type('application/problem+json').send(JSON.stringify({ status, detail: message }));
}

/** A client that names a media type must name this API version's (SE-0292 3.5); none at all is accepted. */
export function acceptOnly(mediaType: string): RegistryGuard {
  return (ctx) => {
    const accept = ctx.req.headers.accept;
    if (accept && accept !== mediaType)
      throw new BadRequestError(`Unexpected accept header. Should be '${mediaType}'.`);
  };
}

function versioned(ctx: RegistryContext): Response {
  return ctx.res.setHeader('Content-Version', '1');
}

function packageUrl(ctx: RegistryContext): string {
  const owner = encodeURIComponent(ctx.owner().lowerName);
  const base = `${ctx.app.settings.server.ROOT_URL}api/packages/${owner}/swift`;
  return `${base}/${encodeURIComponent(ctx.param('scope'))}/${encodeURIComponent(ctx.param('name'))}`;
}

/** POST / and /login: 200 for a signed-in caller (swift package-registry login), else 401. */
export async function checkAuthenticate(ctx: RegistryContext): Promise<void> {
  if (!ctx.caller) throw new UnauthorizedError('authentication required');
  versioned(ctx).status(200).end();
}

/** GET /{scope}/{name}: every release with its URL, the newest named in Link. */
export async function listReleases(ctx: RegistryContext): Promise<void> {
  const versions = await ctx.app.services.swift.versions(ctx.owner(), ctx.param('scope'), ctx.param('name'));
  const base = packageUrl(ctx);
  const releases = Object.fromEntries(versions.map((version) => [version, { url: `${base}/${version}` }]));
  versioned(ctx).setHeader('Link', `<${base}/${versions[versions.length - 1]}>; rel="latest-version"`);
  ctx.res.type(SWIFT_JSON).send(JSON.stringify({ releases }));
}

/** GET /{scope}/{name}/{version}(.json): the release's archive checksum and SoftwareSourceCode. */
export async function releaseInfo(ctx: RegistryContext): Promise<void> {
  const [scope, name] = [ctx.param('scope'), ctx.param('name')];
  const release = await ctx.app.services.swift.release(ctx.owner(), scope, name, ctx.param('version'));
  const { version, metadata, file } = release;
  const body = releaseMetadata(packageId(scope, name), name, version.version, file.blob.hashSha256, metadata);
  versioned(ctx).type(SWIFT_JSON).send(JSON.stringify(body));
}

/** GET /{scope}/{name}/{version}/Package.swift(?swift-version=X): a manifest, or 303 to the unversioned one. */
export async function manifest(ctx: RegistryContext): Promise<void> {
  const [scope, name, version] = [ctx.param('scope'), ctx.param('name'), ctx.param('version')];
  const release = await ctx.app.services.swift.release(ctx.owner(), scope, name, version);
  const asked = typeof ctx.req.query['swift-version'] === 'string' ? ctx.req.query['swift-version'].trim() : '';
  const swiftVersion = asked === '' ? '' : (trimmedSwiftVersion(asked) ?? asked);
  const found = release.metadata.manifests[swiftVersion];
  const res = versioned(ctx);
  if (!found) {
    res.redirect(303, `${packageUrl(ctx)}/${encodeURIComponent(release.version.version)}/Package.swift`);
    return;
  }
  const fileName = swiftVersion === '' ? 'Package.swift' : `Package@swift-${swiftVersion}.swift`;
  res.setHeader('Content-Disposition', `attachment; filename="${fileName}"`);
  res.setHeader('Last-Modified', release.version.createdAt.toUTCString());
  res.type('text/x-swift').send(found.content);
}

/** GET /{scope}/{name}/{version}.zip: the source archive, with its SHA-256 in Digest. */
export async function downloadArchive(ctx: RegistryContext): Promise<void> {
  const { swift, packages } = ctx.app.services;
  const file = await swift.archive(ctx.owner(), ctx.param('scope'), ctx.param('name'), ctx.param('version'));
  versioned(ctx).setHeader('Digest', `sha256=${file.blob.hashSha256}`);
  await serveStoredFile(ctx.req, ctx.res, file, packages);
}

/** GET /identifiers?url=…: the packages published with that repository URL. */
export async function lookupIdentifiers(ctx: RegistryContext): Promise<void> {
  const url = typeof ctx.req.query.url === 'string' ? ctx.req.query.url.trim() : '';
  if (url === '') throw new BadRequestError('the url parameter is required');
  const identifiers = await ctx.app.services.swift.identifiers(ctx.owner(), url);
  versioned(ctx).type(SWIFT_JSON).send(JSON.stringify({ identifiers }));
}

/** PUT /{scope}/{name}/{version}: the multipart publish. */
export async function publishRelease(ctx: RegistryContext): Promise<void> {
  const parts = await readSwiftUpload(ctx.req.headers, ctx.req);
  await ctx.app.services.swift.publish(ctx.doer(), ctx.owner(), {
    scope: ctx.param('scope'),
    name: ctx.param('name'),
    version: ctx.param('version'),
    archive: parts.archive,
    metadata: parts.metadata,
  });
  versioned(ctx).status(201).end();
}
