// The RPM registry's rules (Forgejo: routers/api/packages/rpm, services/packages/rpm): an uploaded .rpm filed under
// its name and `[epoch-]version-release` in a group (the file's composite key; "" for the ungrouped repository),
// its header signed with the owner's key, its parsed headers kept as a property of the file for the index; every upload and delete asks for a rebuild of
// the group's repodata, which the index job builds and swaps in (rpm-index-builder.ts).
import type { Readable } from 'node:stream';
import type { User } from '../../db/entities.ts';
import type { PackageFileRow } from '../../db/package.repository.ts';
import { BadRequestError, NotFoundError, PayloadTooLargeError } from '../../domain/errors.ts';
import type { HookEventsService } from '../../services/hook-events.service.ts';
import type { QuotaService } from '../../services/quota.service.ts';
import type { ServiceDeps } from '../../services/service-deps.ts';
import { PackagePublisher } from '../core/publish.ts';
import { removeIndexedFile } from '../core/remove-indexed-file.ts';
import type { PackageIndexes } from '../core/repository-index.ts';
import type { PackageSigningKeys } from '../core/signing-keys.ts';
import { parseRpmPackage, rpmFileName, rpmVersionString } from './rpm-package.ts';
import { signRpmHeaders } from './rpm-sign.ts';
import { peekRpm, prepend } from './rpm-upload.ts';
import { sizeBound } from '../core/size-bound.ts';

export const RPM = 'rpm';
/** The file property holding the parsed headers (an RpmPackage as JSON). */
export const RPM_METADATA = 'rpm.metadata';

export interface RpmFileTarget {
  group: string;
  name: string;
  version: string;
  arch: string;
}

export class RpmService {
  private readonly publisher: PackagePublisher;

  constructor(
    private readonly deps: ServiceDeps,
    quota: QuotaService,
    private readonly hookEvents: HookEventsService,
    private readonly indexes: PackageIndexes,
    private readonly signingKeys: PackageSigningKeys,
  ) {
    this.publisher = new PackagePublisher(deps, quota, hookEvents);
  }

  /**
   * Stores an uploaded .rpm in the group: 400 for what is no rpm (nothing kept), 409 when the group has that
   * file, 413 past `[packages] LIMIT_SIZE_RPM` or the quota. The group's index is rebuilt after the commit.
   */
  async upload(doer: User, owner: User, group: string, body: Readable, announcedLength?: number): Promise<void> {
    const limit = this.deps.settings.packages.LIMIT_SIZE_RPM;
    const maxBytes = sizeBound(limit);
    if (maxBytes !== undefined && announcedLength !== undefined && announcedLength > maxBytes) {
      throw new PayloadTooLargeError(`the file is too large: at most ${maxBytes} bytes`);
    }
    const peeked = await peekRpm(body);
    const key = this.keyOf(owner, peeked.pkg.name, rpmVersionString(peeked.pkg));
    const fileName = rpmFileName(peeked.pkg);
    // What is refused anyway (409, a full quota) is refused before the owner's key is made or used.
    await this.publisher.precheck({ owner, doer, key, fileName, compositeKey: group, maxBytes });
    // Stored signed with the owner's key (gpgcheck=1), so the index describes the signed headers.
    const signer = await this.signingKeys.pgp(owner);
    const headers = await signRpmHeaders(peeked.headers, peeked.pkg.headerStart, async (header) =>
      Buffer.from(await signer.detachSign(header, 'binary')),
    );
    const pkg = parseRpmPackage(headers);
    const metadataJson = JSON.stringify({
      license: pkg.license,
      project_url: pkg.url,
      summary: pkg.summary,
      description: pkg.description,
    });
    await this.publisher.publish(
      {
        owner,
        doer,
        key,
        fileName,
        compositeKey: group,
        isLead: true,
        metadataJson,
        maxBytes,
        alsoRecord: async (repos, added) => {
          await repos.packageProperties.add('file', added.fileId, { [RPM_METADATA]: JSON.stringify(pkg) });
          await this.indexes.enqueue(repos, { ownerId: owner.id, type: RPM, scope: group });
        },
      },
      prepend(headers, peeked.rest),
    );
  }

  /** The stored .rpm, counted as a download of its version; 404 when the group has none such. */
  async file(owner: User, target: RpmFileTarget): Promise<PackageFileRow> {
    const { version, file } = await this.find(owner, target);
    this.deps.repos.packages.countDownload(version.id);
    return file;
  }

  /** Deletes the .rpm from the group (its version too when it was the last file) and rebuilds the group's index. */
  async delete(doer: User, owner: User, target: RpmFileTarget): Promise<void> {
    const { version, file } = await this.find(owner, target);
    await removeIndexedFile(
      this.deps,
      { indexes: this.indexes, hookEvents: this.hookEvents },
      { doer, owner, version, file, index: { ownerId: owner.id, type: RPM, scope: target.group } },
    );
  }

  private keyOf(owner: User, name: string, version: string) {
    return { ownerId: owner.id, type: RPM, name, version };
  }

  private async find(owner: User, target: RpmFileTarget) {
    if (!target.name || !target.version || !target.arch) throw new BadRequestError('name, version and arch are needed');
    const { packages } = this.deps.repos;
    const version = await packages.findVersion(this.keyOf(owner, target.name, target.version));
    const fileName = `${target.name}-${target.version}.${target.arch}.rpm`;
    const file = version && (await packages.findFile(version.id, fileName, target.group));
    if (!version || !file) throw new NotFoundError('package file does not exist');
    return { version, file };
  }
}
