// The Maven registry's rules (Forgejo: routers/api/packages/maven): artifacts, POMs and other files stored under
// their version (the package is `groupId:artifactId`); deployed checksums checked against the stored digests, not
// stored; maven-metadata.xml generated from the database, so what clients deploy as metadata is read and dropped.
// A file deployed again is a conflict (409) except in a SNAPSHOT version, where it replaces the old one.
import { Readable } from 'node:stream';
import type { User } from '../../db/entities.ts';
import type { PackageFileRow, VersionKey } from '../../db/package.repository.ts';
import { BadRequestError, NotFoundError, PayloadTooLargeError } from '../../domain/errors.ts';
import type { HookEventsService } from '../../services/hook-events.service.ts';
import type { QuotaService } from '../../services/quota.service.ts';
import type { ServiceDeps } from '../../services/service-deps.ts';
import { PackagePublisher } from '../core/publish.ts';
import { checksumMatches, storedChecksum } from './checksum.ts';
import { artifactMetadataXml, snapshotMetadataXml } from './maven-metadata.ts';
import { isSnapshotVersion, type MavenPath, mavenPackageName } from './maven-path.ts';
import { parsePom } from './pom.ts';
import { sizeBound } from '../core/size-bound.ts';

export const MAVEN = 'maven';

/** Deployed metadata and checksums are a few hundred bytes; POMs are read whole to keep their metadata. */
const CHECKSUM_MAX = 4 * 1024;
const METADATA_MAX = 1024 * 1024;
const POM_MAX = 8 * 1024 * 1024;

export interface MetadataDocument {
  xml: string;
  lastModified: Date;
}

/** The body, read whole within `max` bytes (413 past it). */
async function readWhole(body: Readable, max: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > max) throw new PayloadTooLargeError(`the file is too large: at most ${max} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

export class MavenService {
  private readonly publisher: PackagePublisher;

  constructor(
    private readonly deps: ServiceDeps,
    quota: QuotaService,
    hookEvents: HookEventsService,
  ) {
    this.publisher = new PackagePublisher(deps, quota, hookEvents);
  }

  private keyOf(owner: User, path: MavenPath & { version: string }): VersionKey {
    return { ownerId: owner.id, type: MAVEN, name: mavenPackageName(path), version: path.version };
  }

  /** A deploy's PUT; answers whether something was stored (a file) or only read (metadata, a checksum). */
  async deploy(doer: User, owner: User, path: MavenPath, body: Readable, announcedLength?: number): Promise<boolean> {
    if (path.isMetadata) {
      await readWhole(body, METADATA_MAX);
      return false;
    }
    const version = path.version as string;
    if (path.checksum) {
      const sent = (await readWhole(body, CHECKSUM_MAX)).toString('utf8');
      const file = await this.file(owner, path);
      if (!checksumMatches(sent, storedChecksum(file.blob, path.checksum))) throw new BadRequestError('hash mismatch');
      return false;
    }
    const isPom = path.fileName.toLowerCase().endsWith('.pom');
    const limit = this.deps.settings.packages.LIMIT_SIZE_MAVEN;
    const maxBytes = sizeBound(limit);
    const pom = isPom ? await readWhole(body, Math.min(POM_MAX, maxBytes ?? POM_MAX)) : null;
    const metadata = pom ? parsePom(pom.toString('utf8')) : null;
    await this.publisher.publish(
      {
        owner,
        doer,
        key: this.keyOf(owner, { ...path, version }),
        fileName: path.fileName,
        isLead: isPom,
        ...(metadata ? { metadataJson: JSON.stringify(metadata), replaceMetadata: true } : {}),
        replaceExisting: isSnapshotVersion(version),
        maxBytes,
        announcedLength: pom ? pom.length : announcedLength,
      },
      pom ? Readable.from([pom]) : body,
    );
    return true;
  }

  /** The file a path names (its checksum suffix left off); 404 when the version or the file is not there. */
  async file(owner: User, path: MavenPath): Promise<PackageFileRow> {
    const { packages } = this.deps.repos;
    const version =
      path.version === null ? null : await packages.findVersion(this.keyOf(owner, { ...path, version: path.version }));
    const file = version && (await packages.findFile(version.id, path.fileName));
    if (!file) throw new NotFoundError('package file does not exist');
    return file;
  }

  /** Counts a download of the version whose POM or artifact was fetched. */
  countDownload(file: PackageFileRow): void {
    if (file.isLead) this.deps.repos.packages.countDownload(file.versionId);
  }

  /** maven-metadata.xml of the artifact, or of its SNAPSHOT version when the path names one; 404 when empty. */
  async metadata(owner: User, path: MavenPath): Promise<MetadataDocument> {
    const key = { ownerId: owner.id, type: MAVEN, name: mavenPackageName(path) };
    const notFound = () => new NotFoundError('package does not exist');
    if (path.version === null) {
      const versions = await this.deps.repos.packageIndex.listVersions(key);
      if (versions.length === 0) throw notFound();
      return {
        xml: artifactMetadataXml(path.groupId, path.artifactId, versions),
        lastModified: new Date(Math.max(...versions.map((entry) => entry.createdAt.getTime()))),
      };
    }
    const files = await this.deps.repos.packageIndex.listFiles(key, path.version.toLowerCase());
    const stored = files.map((file) => ({ name: file.fileName, createdAt: file.fileCreatedAt }));
    const xml = snapshotMetadataXml(path.groupId, path.artifactId, path.version, stored);
    if (!xml) throw notFound();
    return { xml, lastModified: new Date(Math.max(...stored.map((file) => file.createdAt.getTime()))) };
  }
}
