// The Debian registry's rules (Forgejo: routers/api/packages/debian, services/packages/debian): a .deb uploaded to
// a distribution and component is named by its control file and stored once per distribution and component (the
// file's composite key), its distribution's index rebuilt after each upload and delete; downloads from the pool.
import type { Readable } from 'node:stream';
import type { User } from '../../db/entities.ts';
import type { PackageFileRow, VersionKey } from '../../db/package.repository.ts';
import { BadRequestError, NotFoundError } from '../../domain/errors.ts';
import type { HookEventsService } from '../../services/hook-events.service.ts';
import type { QuotaService } from '../../services/quota.service.ts';
import type { ServiceDeps } from '../../services/service-deps.ts';
import { HeadTap } from '../core/head-tap.ts';
import { PackagePublisher } from '../core/publish.ts';
import { removeIndexedFile } from '../core/remove-indexed-file.ts';
import type { PackageIndexes } from '../core/repository-index.ts';
import { parseDebControl } from './deb-control.ts';
import { DEB_HEAD_BYTES, readDebControl } from './deb-file.ts';
import { DEBIAN, DEBIAN_PROPERTY, poolFileName } from './debian-index.ts';
import { sizeBound } from '../core/size-bound.ts';

/** Distribution and component names: one path segment, no separator of the composite key. */
const SCOPE_NAME = /^[A-Za-z0-9][A-Za-z0-9._+~-]*$/;

export interface PoolFile {
  distribution: string;
  component: string;
  name: string;
  version: string;
  architecture: string;
}

const compositeKey = (distribution: string, component: string) => `${distribution}|${component}`;
const fileNotFound = () => new NotFoundError('package file does not exist');

export function checkScopeNames(distribution: string, component: string): void {
  if (!SCOPE_NAME.test(distribution) || !SCOPE_NAME.test(component) || distribution.length + component.length > 200)
    throw new BadRequestError('invalid distribution or component');
}

export class DebianService {
  private readonly publisher: PackagePublisher;

  constructor(
    private readonly deps: ServiceDeps,
    quota: QuotaService,
    private readonly hookEvents: HookEventsService,
    private readonly indexes: PackageIndexes,
  ) {
    this.publisher = new PackagePublisher(deps, quota, hookEvents);
  }

  /**
   * Stores a .deb in the distribution and component: a body that is no .deb or whose control file is invalid 400,
   * the same package, version and architecture there already 409, past `[packages] LIMIT_SIZE_DEBIAN` 413; the
   * distribution's index is rebuilt after the commit.
   */
  async upload(
    doer: User,
    owner: User,
    target: { distribution: string; component: string },
    body: Readable,
    announcedLength?: number,
  ): Promise<void> {
    const { distribution, component } = target;
    checkScopeNames(distribution, component);
    const limit = this.deps.settings.packages.LIMIT_SIZE_DEBIAN;
    const tap = new HeadTap(DEB_HEAD_BYTES);
    body.on('error', (error) => tap.destroy(error));
    body.pipe(tap);
    const limits = { owner, maxBytes: sizeBound(limit), announcedLength };
    await this.publisher.publishDescribed(limits, tap, async () => {
      const control = parseDebControl(await readDebControl(tap.head));
      const key: VersionKey = { ownerId: owner.id, type: DEBIAN, name: control.name, version: control.version };
      return {
        owner,
        doer,
        key,
        fileName: poolFileName(control.name, control.version, control.architecture),
        compositeKey: compositeKey(distribution, component),
        isLead: true,
        metadataJson: JSON.stringify(control.metadata),
        alsoRecord: async (repos, added) => {
          await repos.packageProperties.add('file', added.fileId, {
            [DEBIAN_PROPERTY.distribution]: distribution,
            [DEBIAN_PROPERTY.component]: component,
            [DEBIAN_PROPERTY.architecture]: control.architecture,
            [DEBIAN_PROPERTY.control]: control.stanza,
          });
          await this.indexes.enqueue(repos, { ownerId: owner.id, type: DEBIAN, scope: distribution });
        },
      };
    });
  }

  /** A .deb of the pool, counted as a download of its version. */
  async poolFile(owner: User, file: PoolFile): Promise<PackageFileRow> {
    const { packages } = this.deps.repos;
    const version = await packages.findVersion({
      ownerId: owner.id,
      type: DEBIAN,
      name: file.name,
      version: file.version,
    });
    const name = poolFileName(file.name, file.version, file.architecture);
    const found =
      version && (await packages.findFile(version.id, name, compositeKey(file.distribution, file.component)));
    if (!version || !found) throw fileNotFound();
    packages.countDownload(version.id);
    return found;
  }

  /** Removes the .deb from the distribution and component; its version goes with its last file. */
  async delete(doer: User, owner: User, file: PoolFile): Promise<void> {
    const { packages } = this.deps.repos;
    const version = await packages.findVersion({
      ownerId: owner.id,
      type: DEBIAN,
      name: file.name,
      version: file.version,
    });
    const name = poolFileName(file.name, file.version, file.architecture);
    const found =
      version && (await packages.findFile(version.id, name, compositeKey(file.distribution, file.component)));
    if (!version || !found) throw fileNotFound();
    const index = { ownerId: owner.id, type: DEBIAN, scope: file.distribution };
    await removeIndexedFile(
      this.deps,
      { indexes: this.indexes, hookEvents: this.hookEvents },
      { doer, owner, version, file: found, index },
    );
  }
}
