// The ALT registry's rules (Forgejo: routers/api/packages/alt, services/packages/alt): an uploaded .rpm kept as it
// came, filed under its name and `[epoch-]version-release` in a group (the file's composite key; "" for the
// ungrouped repository); its main header and BLAKE2b digest kept as a property of the file for the pkglist; every
// upload and delete asks for a rebuild of the group's repository, which the index job builds and swaps in
// (alt-index-builder.ts).
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { User } from '../../db/entities.ts';
import type { PackageFileRow } from '../../db/package.repository.ts';
import { NotFoundError, PayloadTooLargeError } from '../../domain/errors.ts';
import type { HookEventsService } from '../../services/hook-events.service.ts';
import type { QuotaService } from '../../services/quota.service.ts';
import type { ServiceDeps } from '../../services/service-deps.ts';
import { PackagePublisher } from '../core/publish.ts';
import { removeIndexedFile } from '../core/remove-indexed-file.ts';
import type { PackageIndexes } from '../core/repository-index.ts';
import { sizeBound } from '../core/size-bound.ts';
import { rpmFileName, rpmVersionString } from '../rpm/rpm-package.ts';
import { peekRpm, prepend } from '../rpm/rpm-upload.ts';

export const ALT = 'alt';
/** The file property the pkglist is built from (an AltFileMetadata as JSON). */
export const ALT_METADATA = 'alt.metadata';

export interface AltFileMetadata {
  arch: string;
  /** The file's BLAKE2b-512 digest, hex (apt-rpm checks it; the blob store keeps no such digest). */
  blake2b: string;
  /** The main header's bytes, base64. */
  header: string;
}

/** A stored package: its group and its file name's parts, `{name}-{version}.{arch}.rpm`. */
export interface AltFileTarget {
  group: string;
  name: string;
  version: string;
  arch: string;
}

/** The bytes as they pass, into the hash. */
async function* hashing(body: Readable, hash: ReturnType<typeof createHash>): AsyncGenerator<Buffer> {
  for await (const chunk of body) {
    hash.update(chunk as Buffer);
    yield chunk as Buffer;
  }
}

export class AltService {
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
   * Stores an uploaded .rpm in the group: 400 for what is no rpm (nothing kept), 409 when the group has that
   * file, 413 past `[packages] LIMIT_SIZE_ALT` or the quota. The group's index is rebuilt after the commit.
   */
  async upload(doer: User, owner: User, group: string, body: Readable, announcedLength?: number): Promise<void> {
    const maxBytes = sizeBound(this.deps.settings.packages.LIMIT_SIZE_ALT);
    if (maxBytes !== undefined && announcedLength !== undefined && announcedLength > maxBytes) {
      throw new PayloadTooLargeError(`the file is too large: at most ${maxBytes} bytes`);
    }
    const { pkg, headers, rest } = await peekRpm(body);
    const key = this.keyOf(owner, pkg.name, rpmVersionString(pkg));
    const fileName = rpmFileName(pkg);
    await this.publisher.precheck({ owner, doer, key, fileName, compositeKey: group, maxBytes });
    const blake2b = createHash('blake2b512');
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
          // The body has been read whole by now, so the digest is of every byte.
          const meta: AltFileMetadata = {
            arch: pkg.arch,
            blake2b: blake2b.digest('hex'),
            header: headers.subarray(pkg.headerStart, pkg.headerEnd).toString('base64'),
          };
          await repos.packageProperties.add('file', added.fileId, { [ALT_METADATA]: JSON.stringify(meta) });
          await this.indexes.enqueue(repos, { ownerId: owner.id, type: ALT, scope: group });
        },
      },
      Readable.from(hashing(prepend(headers, rest), blake2b)),
    );
  }

  /** The stored .rpm, counted as a download of its version; 404 when the group has none such. */
  async file(owner: User, target: AltFileTarget): Promise<PackageFileRow> {
    const { version, file } = await this.find(owner, target);
    this.deps.repos.packages.countDownload(version.id);
    return file;
  }

  /** Deletes the .rpm from the group (its version too when it was the last file) and rebuilds the group's index. */
  async delete(doer: User, owner: User, target: AltFileTarget): Promise<void> {
    const { version, file } = await this.find(owner, target);
    await removeIndexedFile(
      this.deps,
      { indexes: this.indexes, hookEvents: this.hookEvents },
      { doer, owner, version, file, index: { ownerId: owner.id, type: ALT, scope: target.group } },
    );
  }

  private keyOf(owner: User, name: string, version: string) {
    return { ownerId: owner.id, type: ALT, name, version };
  }

  private async find(owner: User, target: AltFileTarget) {
    const { packages } = this.deps.repos;
    const version = await packages.findVersion(this.keyOf(owner, target.name, target.version));
    const fileName = `${target.name}-${target.version}.${target.arch}.rpm`;
    const file = version && (await packages.findFile(version.id, fileName, target.group));
    if (!version || !file) throw new NotFoundError('package file does not exist');
    return { version, file };
  }
}
