// Conan's references (Forgejo: modules/packages/conan/reference.go, after conans/model/ref.py): a recipe
// `name/version@user/channel#revision` and a binary package of it `package_id#revision`. The path spells a missing
// user or channel `_`, and a reference without a revision (the v1 API's) stands for revision "0". A file is kept
// under its reference's key, `user|channel|recipe revision[|package id|package revision]`, as its composite key.
import { BadRequestError } from '../../domain/errors.ts';

export const DEFAULT_REVISION = '0';

const NAME = /^[a-zA-Z0-9_][a-zA-Z0-9_+.-]{1,50}$/;
const REVISION = /^[a-zA-Z0-9]{1,51}$/;
const MAX_VERSION_LENGTH = 255;

export interface RecipeReference {
  name: string;
  version: string;
  user: string;
  channel: string;
  /** '' when the request names none. */
  revision: string;
}

export interface PackageReference {
  recipe: RecipeReference;
  /** The package id. */
  reference: string;
  /** '' when the request names none. */
  revision: string;
}

const invalid = () => new BadRequestError('could not validate one or more reference fields');

/** The recipe the path names; 400 for a malformed one. */
export function recipeReference(
  name: string,
  version: string,
  user: string,
  channel: string,
  revision = '',
): RecipeReference {
  const owner = user === '_' ? '' : user;
  const stream = channel === '_' ? '' : channel;
  const trimmed = version.trim();
  if ((owner === '') !== (stream === '')) throw invalid();
  if (!NAME.test(name) || trimmed === '' || trimmed.length > MAX_VERSION_LENGTH || /[/|]/.test(trimmed))
    throw invalid();
  if ((owner !== '' && !NAME.test(owner)) || (stream !== '' && !NAME.test(stream))) throw invalid();
  if (revision !== '' && !REVISION.test(revision)) throw invalid();
  return { name, version: trimmed, user: owner, channel: stream, revision };
}

/** A binary package of the recipe; 400 for a malformed id or revision. */
export function packageReference(recipe: RecipeReference, reference: string, revision = ''): PackageReference {
  if (!REVISION.test(reference) || (revision !== '' && !REVISION.test(revision))) throw invalid();
  return { recipe, reference, revision };
}

export const revisionOrDefault = (revision: string) => (revision === '' ? DEFAULT_REVISION : revision);

/** The composite key of the recipe's files. */
export function recipeKey(recipe: RecipeReference): string {
  return `${recipe.user}|${recipe.channel}|${revisionOrDefault(recipe.revision)}`;
}

/** The composite key of the package's files. */
export function packageKey(pkg: PackageReference): string {
  return `${recipeKey(pkg.recipe)}|${pkg.reference}|${revisionOrDefault(pkg.revision)}`;
}

/** `name/version/user/channel/revision` as the v1 file addresses spell it. */
export function recipeLinkName(recipe: RecipeReference): string {
  const { name, version, user, channel } = recipe;
  return `${name}/${version}/${user || '_'}/${channel || '_'}/${revisionOrDefault(recipe.revision)}`;
}

export function packageLinkName(pkg: PackageReference): string {
  return `${pkg.reference}/${revisionOrDefault(pkg.revision)}`;
}

/** `name/version` or `name/version@user/channel`, as `conan search` lists recipes. */
export function recipeName(name: string, version: string, user: string, channel: string): string {
  return user !== '' && channel !== '' ? `${name}/${version}@${user}/${channel}` : `${name}/${version}`;
}

/** The parts of a file's composite key; null for a key that is not Conan's. */
export interface FileKey {
  user: string;
  channel: string;
  recipeRevision: string;
  /** Absent for the recipe's own files. */
  reference?: string;
  packageRevision?: string;
}

export function parseFileKey(key: string): FileKey | null {
  const parts = key.split('|');
  if (parts.length === 3) return { user: parts[0], channel: parts[1], recipeRevision: parts[2] };
  if (parts.length === 5)
    return {
      user: parts[0],
      channel: parts[1],
      recipeRevision: parts[2],
      reference: parts[3],
      packageRevision: parts[4],
    };
  return null;
}
