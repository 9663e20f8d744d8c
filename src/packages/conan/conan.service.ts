// The Conan registry's rules (Forgejo: routers/api/packages/conan, modules/packages/conan): a recipe or binary
// package file uploaded through the package core under its reference's composite key, replacing one of the same
// name (the client uploads a revision again), checked as it streams in (conanfile.py and conaninfo.txt read for
// metadata, the .tgz archives checked for paths out of them and bombs); downloads; and deletes of revisions and
// packages, the version going with its last file. The read answers are ConanDocuments'.
import { pipeline, type Readable } from 'node:stream';
import { PACKAGE_INFO_PROPERTY } from '../../db/conan.repository.ts';
import type { PackageFileRow } from '../../db/package.repository.ts';
import type { User } from '../../db/entities.ts';
import { BadRequestError, NotFoundError } from '../../domain/errors.ts';
import type { HookEventsService } from '../../services/hook-events.service.ts';
import type { QuotaService } from '../../services/quota.service.ts';
import type { ServiceDeps } from '../../services/service-deps.ts';
import { PackagePublisher, type PublishedFile } from '../core/publish.ts';
import { removeUnreferencedBlobs } from '../core/remove-blobs.ts';
import { sizeBound } from '../core/size-bound.ts';
import { conanArchiveCheck } from './conan-archive.ts';
import { ConanDocuments } from './conan-documents.ts';
import { type FileSelector, keyed, selects } from './conan-files.ts';
import { parseConanfile, parseConaninfo } from './conan-metadata.ts';
import { packageKey, type PackageReference, type RecipeReference, recipeKey } from './conan-reference.ts';

export const CONAN = 'conan';

export const RECIPE_FILES: ReadonlySet<string> = new Set([
  'conanfile.py',
  'conanmanifest.txt',
  'conan_sources.tgz',
  'conan_export.tgz',
]);
export const PACKAGE_FILES: ReadonlySet<string> = new Set(['conaninfo.txt', 'conanmanifest.txt', 'conan_package.tgz']);

/** conanfile.py and conaninfo.txt are read whole; a larger one is refused. */
export const MAX_METADATA_BYTES = 1024 * 1024;

/** The file an upload or download names: of the recipe, or of one of its binary packages. */
export interface ConanTarget {
  recipe: RecipeReference;
  pkg?: PackageReference;
  fileName: string;
}

export interface ConanUpload {
  /** The Content-Length, when sent. */
  length?: number;
  /** The client's `X-Checksum-Sha1`. */
  sha1?: string;
}

/** The allowed file name of the target, else 400 (Forgejo answers so). */
function checkedName(target: ConanTarget): string {
  const allowed = target.pkg ? PACKAGE_FILES : RECIPE_FILES;
  if (!allowed.has(target.fileName)) throw new BadRequestError(`${target.fileName} is not a Conan file`);
  return target.fileName;
}

export const compositeKeyOf = (target: Pick<ConanTarget, 'recipe' | 'pkg'>) =>
  target.pkg ? packageKey(target.pkg) : recipeKey(target.recipe);

async function readMetadataFile(fileName: string, bytes: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of bytes) {
    size += (chunk as Buffer).length;
    if (size > MAX_METADATA_BYTES) throw new BadRequestError(`${fileName} is larger than ${MAX_METADATA_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export class ConanService {
  private readonly publisher: PackagePublisher;
  readonly documents: ConanDocuments;

  constructor(
    private readonly deps: ServiceDeps,
    quota: QuotaService,
    private readonly hookEvents: HookEventsService,
  ) {
    this.publisher = new PackagePublisher(deps, quota, hookEvents);
    this.documents = new ConanDocuments(deps.repos.conan);
  }

  /**
   * Stores an uploaded file; false for an empty body, which stores nothing (the client's checksum probe). A file of
   * another name answers 400, as do a malformed file and one not matching its X-Checksum-Sha1; past
   * `[packages] LIMIT_SIZE_CONAN` or the quota 413.
   */
  async upload(doer: User, owner: User, target: ConanTarget, upload: ConanUpload, body: Readable): Promise<boolean> {
    const fileName = checkedName(target);
    if (upload.length === 0) {
      body.resume();
      return false;
    }
    const { recipe } = target;
    const maxBytes = sizeBound(this.deps.settings.packages.LIMIT_SIZE_CONAN);
    const file: PublishedFile = {
      owner,
      doer,
      key: { ownerId: owner.id, type: CONAN, name: recipe.name, version: recipe.version },
      fileName,
      compositeKey: compositeKeyOf(target),
      isLead: fileName === 'conanfile.py',
      replaceExisting: true,
      maxBytes,
      announcedLength: upload.length,
      ...(upload.sha1 ? { expected: { sha1: upload.sha1.toLowerCase() } } : {}),
    };
    if (fileName === 'conanfile.py' || fileName === 'conaninfo.txt') {
      const limits = { owner, maxBytes, announcedLength: upload.length };
      await this.publisher.publishInspected(
        limits,
        body,
        (bytes) => readMetadataFile(fileName, bytes),
        (text) =>
          fileName === 'conanfile.py'
            ? { ...file, metadataJson: JSON.stringify(parseConanfile(text)), replaceMetadata: true }
            : { ...file, properties: { [PACKAGE_INFO_PROPERTY]: JSON.stringify(parseConaninfo(text)) } },
      );
      return true;
    }
    if (!fileName.endsWith('.tgz')) {
      await this.publisher.publish(file, body);
      return true;
    }
    const check = conanArchiveCheck(fileName);
    const checked = pipeline(body, check, () => undefined);
    try {
      await this.publisher.publish(file, checked);
    } catch (error) {
      throw check.failure instanceof BadRequestError ? check.failure : error;
    }
    return true;
  }

  /** A stored file of the target, counted as a download; 404 when there is none. */
  async file(owner: User, target: ConanTarget): Promise<PackageFileRow> {
    const fileName = checkedName(target);
    const { packages } = this.deps.repos;
    const { name, version } = target.recipe;
    const found = await packages.findVersion({ ownerId: owner.id, type: CONAN, name, version });
    const file = found && (await packages.findFile(found.id, fileName, compositeKeyOf(target)));
    if (!found || !file) throw new NotFoundError('package file does not exist');
    packages.countDownload(found.id);
    return file;
  }

  /** Deletes the selected files of the recipe version (404 when none is); the version goes with its last file. */
  async delete(doer: User, owner: User, recipe: RecipeReference, selector: FileSelector): Promise<void> {
    const { conan, packages } = this.deps.repos;
    const [rows, version] = await Promise.all([
      conan.versionFiles(owner.id, recipe.name, recipe.version),
      packages.findVersion({ ownerId: owner.id, type: CONAN, name: recipe.name, version: recipe.version }),
    ]);
    if (!rows || !version) throw new NotFoundError('recipe reference does not exist');
    const selected = keyed(rows.files)
      .filter(({ key }) => selects(selector, key))
      .map(({ file }) => file);
    if (selected.length === 0) throw new NotFoundError('package reference does not exist');
    const orphans = await this.deps.transactions.run(async (repos) => {
      if (selected.length < rows.files.length) return repos.conan.deleteFiles(rows.packageId, selected);
      await this.hookEvents.package(repos, {
        owner,
        sender: doer,
        action: 'deleted',
        package: { version, owner, creator: doer, repository: null },
      });
      return repos.packages.deleteVersion(version);
    });
    await removeUnreferencedBlobs(this.deps, orphans);
  }
}
