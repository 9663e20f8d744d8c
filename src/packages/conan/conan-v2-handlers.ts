// The Conan v2 API's handlers (Forgejo: routers/api/packages/conan conan.go, search.go), which the client speaks
// once the server announces revisions: the latest and all revisions of a recipe and of a binary package, the files
// of a revision, the binary packages of a recipe revision with their conaninfo, and deletes of a recipe, a recipe
// revision, a revision's packages, a package or a package revision.
import type { RegistryContext } from '../core/registry-context.ts';
import { documents, recipeOf, sendConanDocument, service, targetOf } from './conan-handlers.ts';
import { recipeSelector } from './conan-files.ts';
import { packageReference, revisionOrDefault } from './conan-reference.ts';
import { compositeKeyOf } from './conan.service.ts';

function packageOf(ctx: RegistryContext) {
  return packageReference(recipeOf(ctx), ctx.param('pref'));
}

export async function latestRecipeRevision(ctx: RegistryContext): Promise<void> {
  sendConanDocument(ctx, await documents(ctx).latestRecipeRevision(ctx.owner(), recipeOf(ctx)));
}

export async function listRecipeRevisions(ctx: RegistryContext): Promise<void> {
  sendConanDocument(ctx, await documents(ctx).recipeRevisions(ctx.owner(), recipeOf(ctx)));
}

export async function latestPackageRevision(ctx: RegistryContext): Promise<void> {
  sendConanDocument(ctx, await documents(ctx).latestPackageRevision(ctx.owner(), packageOf(ctx)));
}

export async function listPackageRevisions(ctx: RegistryContext): Promise<void> {
  sendConanDocument(ctx, await documents(ctx).packageRevisions(ctx.owner(), packageOf(ctx)));
}

/** `{"files": {name: {}}}` of a recipe revision or a package revision. */
export async function listRevisionFiles(ctx: RegistryContext): Promise<void> {
  const target = targetOf(ctx);
  sendConanDocument(ctx, await documents(ctx).revisionFiles(ctx.owner(), target.recipe, compositeKeyOf(target)));
}

/** The binary packages of the named recipe revision, or of the latest. */
export async function searchPackages(ctx: RegistryContext): Promise<void> {
  sendConanDocument(ctx, await documents(ctx).searchPackages(ctx.owner(), recipeOf(ctx), false));
}

/** DELETE conans/{ref}: every revision; …/revisions/{rrev}: that one, with its packages. */
export async function deleteRecipe(ctx: RegistryContext): Promise<void> {
  const recipe = recipeOf(ctx);
  await service(ctx).delete(ctx.doer(), ctx.owner(), recipe, recipeSelector(recipe));
  ctx.res.status(200).end();
}

/** DELETE …/packages: all of the revision's; …/packages/{pref}: that one; …/revisions/{prev}: that revision. */
export async function deletePackages(ctx: RegistryContext): Promise<void> {
  const recipe = recipeOf(ctx);
  const { pref, prev } = ctx.params;
  if (pref !== undefined) packageReference(recipe, pref, prev ?? '');
  await service(ctx).delete(ctx.doer(), ctx.owner(), recipe, {
    ...recipeSelector(recipe, false),
    recipeRevision: revisionOrDefault(recipe.revision),
    packagesOnly: true,
    ...(pref === undefined ? {} : { references: [pref] }),
    ...(prev === undefined ? {} : { packageRevision: prev }),
  });
  ctx.res.status(200).end();
}
