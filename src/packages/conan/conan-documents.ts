// The Conan API's read answers (Forgejo: routers/api/packages/conan conan.go, search.go): revisions, latest
// revisions, the files of a revision with their MD5s or addresses, a recipe's binary packages with their
// conaninfo, and `conan search` over the owner's recipes. Each is built from one read of the version's files and
// kept per package revision (Package.revision), so a recipe of a thousand revisions costs one small query a request.
import type { ConanRepository } from '../../db/conan.repository.ts';
import type { User } from '../../db/entities.ts';
import { NotFoundError } from '../../domain/errors.ts';
import { type IndexDocument, IndexDocumentCache, indexDocument } from '../core/index-document.ts';
import { RevisionCache } from '../core/revision-cache.ts';
import {
  filesUnder,
  keyed,
  type KeyedFile,
  packageIds,
  packageRevisions,
  recipeRevisions,
  type RevisionEntry,
} from './conan-files.ts';
import { type ConanInfo, parseConaninfo } from './conan-metadata.ts';
import {
  type PackageReference,
  parseFileKey,
  type RecipeReference,
  recipeName,
  revisionOrDefault,
} from './conan-reference.ts';

const notFound = (what = 'recipe reference does not exist') => new NotFoundError(what);

interface VersionState {
  revision: number;
  files: KeyedFile[];
}

/** A document, or null for a 404. */
type Build = (files: KeyedFile[]) => unknown;

export class ConanDocuments {
  private readonly documents = new IndexDocumentCache();
  private readonly versions = new RevisionCache<KeyedFile[]>({ maxSize: 256 });
  private readonly recipeLists = new RevisionCache<RecipeName[]>({ maxSize: 256 });

  constructor(private readonly conan: ConanRepository) {}

  /** The version's files as of the package's revision: kept, or read now. */
  private async versionFiles(owner: User, recipe: RecipeReference): Promise<{ key: string; state: VersionState }> {
    const found = await this.conan.revisionOf(owner.id, recipe.name.toLowerCase());
    if (!found) throw notFound();
    const key = `${found.id}/${recipe.version.toLowerCase()}`;
    const files = await this.versions.get(key, found.revision, async () => {
      const rows = await this.conan.versionFiles(owner.id, recipe.name, recipe.version);
      if (!rows) throw notFound();
      return keyed(rows.files);
    });
    return { key, state: { revision: found.revision, files } };
  }

  /** The document `name` of the recipe version, kept while the package's revision is the same. */
  private async document(owner: User, recipe: RecipeReference, name: string, build: Build): Promise<IndexDocument> {
    const { key, state } = await this.versionFiles(owner, recipe);
    const documentKey = `${key}\n${name}`;
    return this.documents.get(documentKey, state.revision, async () => {
      const value = build(state.files);
      if (value === null) throw notFound();
      return indexDocument(JSON.stringify(value));
    });
  }

  /** `{"revisions": [{revision, time}]}`, newest first. */
  recipeRevisions(owner: User, recipe: RecipeReference): Promise<IndexDocument> {
    const { user, channel } = recipe;
    return this.document(owner, recipe, `revisions|${user}|${channel}`, (files) =>
      revisionList(recipeRevisions(files, recipe)),
    );
  }

  latestRecipeRevision(owner: User, recipe: RecipeReference): Promise<IndexDocument> {
    const { user, channel } = recipe;
    return this.document(
      owner,
      recipe,
      `latest|${user}|${channel}`,
      (files) => recipeRevisions(files, recipe)[0] ?? null,
    );
  }

  packageRevisions(owner: User, pkg: PackageReference): Promise<IndexDocument> {
    const name = `revisions|${pkgName(pkg)}`;
    return this.document(owner, pkg.recipe, name, (files) =>
      revisionList(packageRevisions(files, pkg.recipe, pkg.reference)),
    );
  }

  latestPackageRevision(owner: User, pkg: PackageReference): Promise<IndexDocument> {
    const name = `latest|${pkgName(pkg)}`;
    return this.document(
      owner,
      pkg.recipe,
      name,
      (files) => packageRevisions(files, pkg.recipe, pkg.reference)[0] ?? null,
    );
  }

  /** v2: `{"files": {name: {}}}` of the key's files. */
  revisionFiles(owner: User, recipe: RecipeReference, compositeKey: string): Promise<IndexDocument> {
    return this.document(owner, recipe, `files|${compositeKey}`, (files) => {
      const found = filesUnder(files, compositeKey);
      return found.length === 0 ? null : { files: Object.fromEntries(found.map((file) => [file.name, {}])) };
    });
  }

  /** v1: `{name: md5}` of the key's files. */
  snapshot(owner: User, recipe: RecipeReference, compositeKey: string): Promise<IndexDocument> {
    return this.document(owner, recipe, `snapshot|${compositeKey}`, (files) => {
      const found = filesUnder(files, compositeKey);
      return found.length === 0 ? null : Object.fromEntries(found.map((file) => [file.name, file.md5]));
    });
  }

  /** v1: `{name: address}` of the key's files under `base`. */
  downloadUrls(owner: User, recipe: RecipeReference, compositeKey: string, base: string): Promise<IndexDocument> {
    return this.document(owner, recipe, `urls|${compositeKey}|${base}`, (files) => {
      const found = filesUnder(files, compositeKey);
      return found.length === 0 ? null : Object.fromEntries(found.map((file) => [file.name, `${base}/${file.name}`]));
    });
  }

  /**
   * `{package id: conaninfo}` of the recipe's binary packages, each at its latest revision: of the named recipe
   * revision, or of the latest when it names none (v2), or of every revision (v1).
   */
  searchPackages(owner: User, recipe: RecipeReference, everyRevision: boolean): Promise<IndexDocument> {
    const name = `search|${recipe.user}|${recipe.channel}|${recipe.revision}|${everyRevision}`;
    return this.document(owner, recipe, name, (files) => {
      const revisions = recipeRevisions(files, recipe).map((entry) => entry.revision);
      if (revisions.length === 0) return null;
      const searched = everyRevision ? revisions : [recipe.revision === '' ? revisions[0] : recipe.revision];
      if (!revisions.includes(searched[0])) return null;
      const result: Record<string, ConanInfo> = {};
      for (const revision of searched) {
        const revisionRecipe = { ...recipe, revision };
        for (const id of packageIds(files, revisionRecipe)) {
          if (result[id]) continue;
          const latest = packageRevisions(files, revisionRecipe, id)[0];
          const info = files.find(
            ({ file, key }) =>
              file.name === 'conaninfo.txt' &&
              key.recipeRevision === revision &&
              key.reference === id &&
              key.packageRevision === latest?.revision &&
              key.user === recipe.user &&
              key.channel === recipe.channel,
          )?.file.info;
          result[id] = info ? (JSON.parse(info) as ConanInfo) : parseConaninfo('');
        }
      }
      return result;
    });
  }

  /**
   * `conan search`: the owner's recipes matching `name/version@user/channel`, where a part may be left out or hold
   * `*` wildcards.
   */
  async searchRecipes(owner: User, query: string): Promise<{ results: string[] }> {
    const revision = await this.conan.ownerRevision(owner.id);
    const names = await this.recipeLists.get(String(owner.id), revision, async () =>
      recipeNames(await this.conan.recipes(owner.id)),
    );
    const wanted = queryParts(query);
    return { results: names.filter((recipe) => wanted(recipe)).map((recipe) => recipe.text) };
  }
}

interface RecipeName {
  name: string;
  version: string;
  user: string;
  channel: string;
  text: string;
}

function recipeNames(rows: readonly { name: string; version: string; compositeKey: string }[]): RecipeName[] {
  const unique = new Map<string, RecipeName>();
  for (const row of rows) {
    const key = parseFileKey(row.compositeKey);
    if (!key) continue;
    const text = recipeName(row.name, row.version, key.user, key.channel);
    unique.set(text, { name: row.name, version: row.version, user: key.user, channel: key.channel, text });
  }
  return [...unique.values()].sort((a, b) => a.text.localeCompare(b.text));
}

/** A part of the query as a test: `*` matches any run of characters; names and versions ignore case. */
function partTest(pattern: string | undefined, ignoreCase: boolean): (value: string) => boolean {
  if (pattern === undefined || pattern === '' || pattern === '*') return () => true;
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  const test = new RegExp(`^${source}$`, ignoreCase ? 'i' : '');
  return (value) => test.test(value);
}

function queryParts(query: string): (recipe: RecipeName) => boolean {
  const [name, version, user, channel] = query.replaceAll('@', '/').split('/');
  const tests = [partTest(name, true), partTest(version, true), partTest(user, false), partTest(channel, false)];
  return (recipe) =>
    tests[0](recipe.name) && tests[1](recipe.version) && tests[2](recipe.user) && tests[3](recipe.channel);
}

function revisionList(revisions: RevisionEntry[]) {
  return revisions.length === 0 ? null : { revisions };
}

const pkgName = (pkg: PackageReference) =>
  `${pkg.recipe.user}|${pkg.recipe.channel}|${revisionOrDefault(pkg.recipe.revision)}|${pkg.reference}`;
