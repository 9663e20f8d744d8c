// The NuGet V3 handlers (Forgejo: routers/api/packages/nuget nuget.go): the service index, push and delete, the
// package base address, registration and search, and the symbol server. Each is one service call and an answer
// in the client's form.
import { BadRequestError } from '../../domain/errors.ts';
import { serveStoredFile } from '../../http/serve-blob.ts';
import { type IndexDocument, sendIndexDocument } from '../core/index-document.ts';
import type { RegistryContext } from '../core/registry-context.ts';
import { uploadedFile } from '../core/upload-body.ts';
import { NUGET } from './nuget-push.ts';
import { nugetPage } from './nuget-query.ts';
import { registrationLeaf, searchResults, serviceIndex } from './v3-documents.ts';
import { servePackageDownload } from '../core/serve-download.ts';

const JSON_TYPE = 'application/json; charset=utf-8';

function sendDocument(ctx: RegistryContext, document: IndexDocument): void {
  sendIndexDocument(ctx.req, ctx.res, document, JSON_TYPE);
}

export async function getServiceIndex(ctx: RegistryContext): Promise<void> {
  ctx.res.status(200).json(serviceIndex(ctx.registryUrl()));
}

/** PUT / (`dotnet nuget push`): the .nupkg, as the body or the first file of a form. */
export async function pushPackage(ctx: RegistryContext): Promise<void> {
  await ctx.app.services.nugetPush.push(ctx.doer(), ctx.owner(), await uploadedFile(ctx.req));
  ctx.res.status(201).end();
}

/** PUT /symbolpackage: the .snupkg of a pushed version. */
export async function pushSymbolPackage(ctx: RegistryContext): Promise<void> {
  await ctx.app.services.nugetPush.pushSymbols(ctx.doer(), ctx.owner(), await uploadedFile(ctx.req));
  ctx.res.status(201).end();
}

/** DELETE /{id}/{version} (`dotnet nuget delete`). */
export async function deleteVersion(ctx: RegistryContext): Promise<void> {
  await ctx.app.services.packages.delete(ctx.doer(), ctx.owner(), NUGET, ctx.param('id'), ctx.param('version'));
  ctx.res.status(204).end();
}

export async function getVersionList(ctx: RegistryContext): Promise<void> {
  sendDocument(ctx, await ctx.app.services.nuget.versionList(ctx.owner(), ctx.param('id')));
}

/** GET /package/{id}/{version}/{filename}: the .nupkg or the .nuspec. */
export async function downloadPackageFile(ctx: RegistryContext): Promise<void> {
  const { id, version, filename } = ctx.params;
  const file = await ctx.app.services.nuget.file(ctx.owner(), id, version, filename);
  await servePackageDownload(ctx, file, file.name.endsWith('.nuspec') ? 'application/xml' : 'application/octet-stream');
}

export async function getRegistrationIndex(ctx: RegistryContext): Promise<void> {
  sendDocument(ctx, await ctx.app.services.nuget.registrationIndex(ctx.owner(), ctx.param('id'), ctx.registryUrl()));
}

export async function getRegistrationPage(ctx: RegistryContext): Promise<void> {
  const { id, lower, upper } = ctx.params;
  sendDocument(ctx, await ctx.app.services.nuget.registrationPage(ctx.owner(), id, lower, upper, ctx.registryUrl()));
}

export async function getRegistrationLeaf(ctx: RegistryContext): Promise<void> {
  const entry = await ctx.app.services.nuget.entry(ctx.owner(), ctx.param('id'), ctx.param('version'));
  ctx.res.status(200).json(registrationLeaf(ctx.registryUrl(), entry));
}

/** GET /query?q=&skip=&take= (SearchQueryService). */
export async function searchV3(ctx: RegistryContext): Promise<void> {
  const query = ctx.req.query;
  const text = typeof query.q === 'string' ? query.q.trim() : '';
  const page = nugetPage(query.skip, query.take);
  const { total, packages } = await ctx.app.services.nuget.search(ctx.owner(), text, page);
  ctx.res.status(200).json(searchResults(ctx.registryUrl(), total, packages));
}

/** GET /symbols/{file}/{pdb id}ffffffff/{file} (the Simple Symbol Query Protocol). */
export async function downloadSymbolFile(ctx: RegistryContext): Promise<void> {
  const { filename, guid, filename2 } = ctx.params;
  if (filename.toLowerCase() !== filename2.toLowerCase()) throw new BadRequestError('the file names differ');
  const file = await ctx.app.services.nuget.symbolFile(ctx.owner(), filename, guid.slice(0, 32));
  await serveStoredFile(ctx.req, ctx.res, file, ctx.app.services.packages);
}
