// The Conan v1 API's handlers (Forgejo: routers/api/packages/conan conan.go), for clients without revisions: a
// recipe or package is its revision "0". The client asks for the files' MD5s (the snapshot) or addresses
// (download_urls, digest), posts the files it will upload and gets where to PUT them (upload_urls, under v1/files),
// searches a recipe's binary packages over all its revisions, and deletes recipes and packages.
import { BadRequestError } from '../../domain/errors.ts';
import type { RegistryContext } from '../core/registry-context.ts';
import { documents, jsonBody, recipeOf, sendConanDocument, sendJson, service, targetOf } from './conan-handlers.ts';
import { recipeSelector } from './conan-files.ts';
import { packageLinkName, packageReference, recipeLinkName } from './conan-reference.ts';
import { compositeKeyOf, PACKAGE_FILES, RECIPE_FILES } from './conan.service.ts';

/** Where the v1 files of the recipe, or of its package, are uploaded and downloaded. */
function filesBase(ctx: RegistryContext): string {
  const target = targetOf(ctx);
  const recipe = `${ctx.registryUrl()}/v1/files/${recipeLinkName(target.recipe)}`;
  return target.pkg ? `${recipe}/package/${packageLinkName(target.pkg)}` : `${recipe}/recipe`;
}

/** `{name: md5}` of the recipe's or package's files. */
export async function snapshot(ctx: RegistryContext): Promise<void> {
  const target = targetOf(ctx);
  sendConanDocument(ctx, await documents(ctx).snapshot(ctx.owner(), target.recipe, compositeKeyOf(target)));
}

/** `{name: address}` of the recipe's or package's files (download_urls and digest). */
export async function downloadUrls(ctx: RegistryContext): Promise<void> {
  const target = targetOf(ctx);
  const document = await documents(ctx).downloadUrls(
    ctx.owner(),
    target.recipe,
    compositeKeyOf(target),
    filesBase(ctx),
  );
  sendConanDocument(ctx, document);
}

/** POST upload_urls `{name: size}`: the address of each Conan file named. */
export async function uploadUrls(ctx: RegistryContext): Promise<void> {
  const target = targetOf(ctx);
  const files = await jsonBody(ctx);
  if (!files || typeof files !== 'object' || Array.isArray(files)) throw new BadRequestError('expected {file: size}');
  const allowed = target.pkg ? PACKAGE_FILES : RECIPE_FILES;
  const base = filesBase(ctx);
  const urls = Object.keys(files)
    .filter((name) => allowed.has(name))
    .map((name) => [name, `${base}/${name}`]);
  sendJson(ctx, 200, Object.fromEntries(urls));
}

/** The recipe's binary packages over all its revisions. */
export async function searchPackages(ctx: RegistryContext): Promise<void> {
  sendConanDocument(ctx, await documents(ctx).searchPackages(ctx.owner(), recipeOf(ctx), true));
}

/** DELETE conans/{ref}: the recipe, every revision. */
export async function deleteRecipe(ctx: RegistryContext): Promise<void> {
  const recipe = recipeOf(ctx);
  await service(ctx).delete(ctx.doer(), ctx.owner(), recipe, recipeSelector(recipe, true));
  ctx.res.status(200).end();
}

/** POST packages/delete `{"package_ids": […]}`: those packages (all when none is named), in every revision. */
export async function deletePackages(ctx: RegistryContext): Promise<void> {
  const recipe = recipeOf(ctx);
  const body = (await jsonBody(ctx)) as { package_ids?: unknown } | null;
  const ids = body?.package_ids ?? [];
  if (!Array.isArray(ids) || !ids.every((id): id is string => typeof id === 'string'))
    throw new BadRequestError('package_ids must be a list of package ids');
  for (const id of ids) packageReference(recipe, id);
  await service(ctx).delete(ctx.doer(), ctx.owner(), recipe, {
    ...recipeSelector(recipe, true),
    packagesOnly: true,
    ...(ids.length > 0 ? { references: ids } : {}),
  });
  ctx.res.status(200).end();
}
