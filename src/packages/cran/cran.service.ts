// The CRAN registry's rules (Forgejo: routers/api/packages/cran): an upload of a source package or of a binary
// build for a platform and R version, its name and version read from its own DESCRIPTION while it streams in, kept
// as a file of its version (one per tree: a file that is there answers 409); the PACKAGES index per tree; files to
// download.
import type { Readable } from 'node:stream';
import type { User } from '../../db/entities.ts';
import type { PackageFileRow } from '../../db/package.repository.ts';
import { BadRequestError, NotFoundError } from '../../domain/errors.ts';
import type { HookEventsService } from '../../services/hook-events.service.ts';
import type { QuotaService } from '../../services/quota.service.ts';
import type { ServiceDeps } from '../../services/service-deps.ts';
import { RevisionCache } from '../core/revision-cache.ts';
import { PackagePublisher } from '../core/publish.ts';
import type { CranDescription } from './description.ts';
import { readRPackage } from './package-archive.ts';
import {
  binaryTree,
  buildCranCatalog,
  type CranCatalog,
  type PackagesDocument,
  SOURCE_TREE,
} from './packages-index.ts';
import { sizeBound } from '../core/size-bound.ts';

export const CRAN = 'cran';

/** Where a file goes: the source tree, or the binary tree of a platform and R version. */
export type CranTree = { kind: 'source' } | { kind: 'binary'; platform: string; rversion: string };

const PLATFORM = /^[A-Za-z0-9._-]{1,64}$/;
const R_VERSION = /^[0-9]+(?:\.[0-9]+){0,2}$/;

const treeKey = (tree: CranTree) => (tree.kind === 'source' ? SOURCE_TREE : binaryTree(tree.platform, tree.rversion));

/** A binary tree's platform and R version, checked (400 when missing or malformed). */
export function binaryTreeOf(platform: string, rversion: string): CranTree {
  if (!PLATFORM.test(platform) || !R_VERSION.test(rversion))
    throw new BadRequestError('platform and rversion are required: a platform name and an R version such as 4.3');
  return { kind: 'binary', platform, rversion };
}

export class CranService {
  private readonly publisher: PackagePublisher;
  /** By owner, at the revision of its CRAN packages. */
  private readonly catalogs = new RevisionCache<CranCatalog>({ maxSize: 500 });

  constructor(
    private readonly deps: ServiceDeps,
    quota: QuotaService,
    hookEvents: HookEventsService,
  ) {
    this.publisher = new PackagePublisher(deps, quota, hookEvents);
  }

  /** Stores a package in a tree: a non-package answers 400, a file of that name in the tree 409, past the limit 413. */
  async upload(
    doer: User,
    owner: User,
    tree: CranTree,
    body: Readable,
    announcedLength?: number,
  ): Promise<CranDescription> {
    const limit = this.deps.settings.packages.LIMIT_SIZE_CRAN;
    const { found } = await this.publisher.publishInspected(
      { owner, maxBytes: sizeBound(limit), announcedLength },
      body,
      readRPackage,
      (inspected) => ({
        owner,
        doer,
        key: { ownerId: owner.id, type: CRAN, name: inspected.name, version: inspected.version },
        fileName: `${inspected.name}_${inspected.version}${inspected.extension}`,
        compositeKey: treeKey(tree),
        metadataJson: JSON.stringify(inspected.metadata),
      }),
    );
    return found;
  }

  /** The tree's PACKAGES; 404 for a tree without packages, as in Forgejo. */
  async packages(owner: User, tree: CranTree): Promise<PackagesDocument> {
    const document = (await this.catalog(owner)).trees.get(treeKey(tree));
    if (!document) throw new NotFoundError('no packages');
    return document;
  }

  /** A file of the tree, counted as a download of its version. */
  async file(owner: User, tree: CranTree, fileName: string): Promise<PackageFileRow> {
    const found = (await this.catalog(owner)).files.get(treeKey(tree))?.get(fileName.toLowerCase());
    const file = found && (await this.deps.repos.packages.findFile(found.versionId, found.fileName, treeKey(tree)));
    if (!found || !file) throw new NotFoundError('package file does not exist');
    this.deps.repos.packages.countDownload(found.versionId);
    return file;
  }

  /** The owner's catalog: the kept one while its packages keep their revision, else built from one query. */
  private async catalog(owner: User) {
    const index = this.deps.repos.ownerPackageIndex;
    const revision = await index.revision(owner.id, CRAN);
    return this.catalogs.get(String(owner.id), revision, async () =>
      buildCranCatalog(await index.listFiles(owner.id, CRAN)),
    );
  }
}
