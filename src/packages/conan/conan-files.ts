// What the Conan API answers, read off a recipe version's files (Forgejo: models/packages/conan references.go,
// search.go): each file's composite key names the recipe revision, and for a binary package its id and revision, it
// belongs to; a revision's time is its newest file's, and the newest revision is the latest.
import type { ConanFileRow } from '../../db/conan.repository.ts';
import { type FileKey, parseFileKey, type RecipeReference, revisionOrDefault } from './conan-reference.ts';

export interface RevisionEntry {
  revision: string;
  /** RFC 3339, to the second, as Forgejo answers it. */
  time: string;
}

/** Which files a lookup or a delete is about. */
export interface FileSelector {
  user: string;
  channel: string;
  /** Any recipe revision when absent. */
  recipeRevision?: string;
  /** Only the files of binary packages. */
  packagesOnly?: boolean;
  /** Only these package ids (with packagesOnly). */
  references?: readonly string[];
  /** Only this package revision (with packagesOnly). */
  packageRevision?: string;
}

export interface KeyedFile {
  file: ConanFileRow;
  key: FileKey;
}

const rfc3339 = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

export function keyed(files: readonly ConanFileRow[]): KeyedFile[] {
  const found: KeyedFile[] = [];
  for (const file of files) {
    const key = parseFileKey(file.compositeKey);
    if (key) found.push({ file, key });
  }
  return found;
}

export function selects(selector: FileSelector, key: FileKey): boolean {
  if (key.user !== selector.user || key.channel !== selector.channel) return false;
  if (selector.recipeRevision !== undefined && key.recipeRevision !== selector.recipeRevision) return false;
  if (!selector.packagesOnly) return true;
  if (key.reference === undefined) return false;
  if (selector.references && !selector.references.includes(key.reference)) return false;
  return selector.packageRevision === undefined || key.packageRevision === selector.packageRevision;
}

/** The recipe's selector: its user and channel, and its revision when it names one. */
export function recipeSelector(recipe: RecipeReference, anyRevision = recipe.revision === ''): FileSelector {
  return {
    user: recipe.user,
    channel: recipe.channel,
    ...(anyRevision ? {} : { recipeRevision: revisionOrDefault(recipe.revision) }),
  };
}

/** The distinct values `valueOf` gives over the selected files, newest first (by their newest file). */
function newestFirst(
  files: readonly KeyedFile[],
  selector: FileSelector,
  valueOf: (key: FileKey) => string | undefined,
): RevisionEntry[] {
  const newest = new Map<string, ConanFileRow>();
  for (const { file, key } of files) {
    const value = valueOf(key);
    if (value === undefined || !selects(selector, key)) continue;
    const kept = newest.get(value);
    if (!kept || kept.createdAt < file.createdAt || (+kept.createdAt === +file.createdAt && kept.id < file.id))
      newest.set(value, file);
  }
  return [...newest.entries()]
    .sort(([, a], [, b]) => +b.createdAt - +a.createdAt || b.id - a.id)
    .map(([revision, file]) => ({ revision, time: rfc3339(file.createdAt) }));
}

/** The recipe's revisions (its files' and its packages'), newest first. */
export function recipeRevisions(files: readonly KeyedFile[], recipe: RecipeReference): RevisionEntry[] {
  return newestFirst(files, recipeSelector(recipe, true), (key) => key.recipeRevision);
}

/** The package ids of a recipe revision (of any revision when the recipe names none), newest first. */
export function packageIds(files: readonly KeyedFile[], recipe: RecipeReference): string[] {
  const selector = { ...recipeSelector(recipe), packagesOnly: true };
  return newestFirst(files, selector, (key) => key.reference).map((entry) => entry.revision);
}

/** The revisions of a binary package of a recipe revision, newest first. */
export function packageRevisions(
  files: readonly KeyedFile[],
  recipe: RecipeReference,
  reference: string,
): RevisionEntry[] {
  const selector = { ...recipeSelector(recipe, false), packagesOnly: true, references: [reference] };
  return newestFirst(files, selector, (key) => key.packageRevision);
}

/** The files under one composite key. */
export function filesUnder(files: readonly KeyedFile[], compositeKey: string): ConanFileRow[] {
  return files.filter(({ file }) => file.compositeKey === compositeKey).map(({ file }) => file);
}
