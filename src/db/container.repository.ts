// The container registry's rows (Forgejo: models/packages/container). An image is a package of type `container`;
// each tag, and each manifest pushed by digest alone, a version whose lead file `manifest.json` holds the manifest
// and whose other files, named by digest, refer to the blobs it uses. Blobs pushed before a manifest refers to
// them are files of the internal version `_upload`, named by digest; the chunks of an upload in progress too,
// named `<upload id>/<index>`.
import type { Viewer } from '../domain/access/owner-visibility.ts';
import type { BlobDigests } from '../infra/storage/blob-store.ts';
import { visibleOwnersWhere } from './access-filters.ts';
import type { FoundManifest, HotQueries, ManifestReference } from './hot-queries.ts';
import { translated } from '../infra/database/errors.ts';
import { deleteOrphanBlobRows } from './package-blob.repository.ts';
import { upsertBlobRow, upsertPackage } from './package.repository.ts';
import type { DbClient, Prisma } from './prisma.ts';
import type { DatabaseTarget } from '../infra/database/target.ts';

export const CONTAINER_TYPE = 'container';
export const UPLOAD_VERSION = '_upload';
export const MANIFEST_FILE = 'manifest.json';

/** An image of an owner: the package's owner and its (lower-case) name. */
export interface ImageKey {
  ownerId: number;
  image: string;
}

const FILE_INCLUDE = { blob: true, version: { include: { package: true } } } as const;
export type ContainerFileRow = Prisma.PackageFileGetPayload<{ include: typeof FILE_INCLUDE }>;
export type ContainerVersionRow = Prisma.PackageVersionGetPayload<{ include: { files: { include: { blob: true } } } }>;
export type ContainerUploadRow = Prisma.ContainerUploadGetPayload<object>;

export interface NewManifestVersion {
  key: ImageKey;
  /** The tag, or the manifest's digest when pushed by digest alone. */
  version: string;
  creatorId: number;
  metadataJson: string;
  manifest: BlobDigests;
  /** Blob files the version refers to: their digest (the file name) and the blob row they point at. */
  references: readonly { digest: string; blobId: number }[];
}

function packageWhere(key: ImageKey): Prisma.PackageWhereInput {
  return { ownerId: key.ownerId, type: CONTAINER_TYPE, lowerName: key.image.toLowerCase() };
}

export class ContainerRepository {
  constructor(
    private readonly client: DbClient,
    private readonly provider: DatabaseTarget['provider'],
    private readonly hot: HotQueries,
  ) {}

  /** The manifest a tag or digest names, in one prepared statement (the first request of every pull). */
  findManifest(key: ImageKey, reference: ManifestReference): Promise<FoundManifest | null> {
    const lowered = 'tag' in reference ? { tag: reference.tag.toLowerCase() } : reference;
    return this.hot.containerManifest(key.ownerId, key.image.toLowerCase(), lowered);
  }

  async imageExists(key: ImageKey): Promise<boolean> {
    return (await this.client.package.count({ where: packageWhere(key) })) > 0;
  }

  /** A blob of the image by digest: an uploaded one or one a manifest refers to. */
  async findBlob(key: ImageKey, digest: string): Promise<ContainerFileRow | null> {
    const file = await this.client.packageFile.findFirst({
      where: { lowerName: digest.toLowerCase(), version: { package: packageWhere(key) } },
      include: FILE_INCLUDE,
      orderBy: { id: 'asc' },
    });
    // The file and its blob are read in separate statements: a delete committed between them leaves no blob.
    return file?.blob && file.version ? file : null;
  }

  /** The manifest a tag names. */
  findTagged(key: ImageKey, tag: string): Promise<ContainerFileRow | null> {
    return this.client.packageFile.findFirst({
      where: {
        lowerName: MANIFEST_FILE,
        version: { lowerVersion: tag.toLowerCase(), isInternal: false, package: packageWhere(key) },
      },
      include: FILE_INCLUDE,
    });
  }

  /** Every version (tags and the digest's own) whose manifest has this SHA-256 or SHA-512. */
  findByManifestHash(key: ImageKey, algorithm: 'sha256' | 'sha512', hex: string): Promise<ContainerFileRow[]> {
    return this.client.packageFile.findMany({
      where: {
        lowerName: MANIFEST_FILE,
        blob: algorithm === 'sha256' ? { hashSha256: hex } : { hashSha512: hex },
        version: { isInternal: false, package: packageWhere(key) },
      },
      include: FILE_INCLUDE,
      orderBy: { id: 'asc' },
    });
  }

  /** Tags in order, after `last`, at most `limit` (digest versions have a ':' and are no tags). */
  async listTags(key: ImageKey, last: string, limit: number): Promise<string[]> {
    const versions = await this.client.packageVersion.findMany({
      where: {
        isInternal: false,
        package: packageWhere(key),
        NOT: { lowerVersion: { contains: ':' } },
        ...(last ? { lowerVersion: { gt: last.toLowerCase() } } : {}),
      },
      select: { version: true },
      orderBy: { lowerVersion: 'asc' },
      take: limit,
    });
    return versions.map((version) => version.version);
  }

  /**
   * The catalog: `{owner}/{image}` of every image with a manifest whose owner the viewer may see, in order of owner
   * then image, after `last` (an entry of a previous page), at most `limit`.
   */
  async listImageNames(viewer: Viewer | null, last: string, limit: number): Promise<string[]> {
    const slash = last.indexOf('/');
    const [lastOwner, lastImage] = slash > 0 ? [last.slice(0, slash), last.slice(slash + 1)] : [last, ''];
    const withImages = await this.client.package.findMany({
      where: { type: CONTAINER_TYPE, versions: { some: { isInternal: false } } },
      distinct: ['ownerId'],
      select: { ownerId: true },
    });
    // Each owner has an image, so `limit` owners fill a page; the one more is for the owner `last` ended within.
    const owners = await this.client.user.findMany({
      where: {
        AND: [
          { id: { in: withImages.map((row) => row.ownerId) } },
          visibleOwnersWhere(viewer),
          { lowerName: { gte: lastOwner.toLowerCase() } },
        ],
      },
      select: { id: true, lowerName: true },
      orderBy: { lowerName: 'asc' },
      take: limit + 1,
    });
    const images = await this.client.package.findMany({
      where: {
        type: CONTAINER_TYPE,
        ownerId: { in: owners.map((owner) => owner.id) },
        versions: { some: { isInternal: false } },
      },
      select: { ownerId: true, lowerName: true },
      orderBy: { lowerName: 'asc' },
    });
    const names: string[] = [];
    for (const owner of owners) {
      for (const image of images) {
        if (image.ownerId !== owner.id) continue;
        if (owner.lowerName === lastOwner.toLowerCase() && image.lowerName <= lastImage.toLowerCase()) continue;
        names.push(`${owner.lowerName}/${image.lowerName}`);
      }
    }
    return names.slice(0, limit);
  }

  /** Manifest versions whose metadata mentions the digest (the caller keeps those whose subject it is). */
  listMentioning(key: ImageKey, digest: string): Promise<ContainerVersionRow[]> {
    return this.client.packageVersion.findMany({
      where: { isInternal: false, package: packageWhere(key), metadataJson: { contains: digest } },
      include: { files: { where: { lowerName: MANIFEST_FILE }, include: { blob: true } } },
      orderBy: { id: 'asc' },
    });
  }

  /**
   * Writes a manifest's version: a tag pushed again gets the new manifest and references in place of the old. Run
   * it in a transaction; answers the hashes of blobs no file refers to any more (their rows are gone). A version
   * created by a concurrent push meanwhile fails a unique index: NameTakenError.
   */
  writeManifestVersion(entry: NewManifestVersion): Promise<{ orphans: string[]; created: boolean }> {
    return translated({ taken: 'container manifest version' }, () => this.insertManifestVersion(entry));
  }

  private async insertManifestVersion(entry: NewManifestVersion): Promise<{ orphans: string[]; created: boolean }> {
    const pkg = await upsertPackage(this.client, {
      ownerId: entry.key.ownerId,
      type: CONTAINER_TYPE,
      name: entry.key.image,
    });
    const lowerVersion = entry.version.toLowerCase();
    const existing = await this.client.packageVersion.findUnique({
      where: { packageId_lowerVersion: { packageId: pkg.id, lowerVersion } },
    });
    let versionId: number;
    let replaced: number[] = [];
    if (existing) {
      const files = await this.client.packageFile.findMany({
        where: { versionId: existing.id },
        select: { blobId: true },
      });
      replaced = files.map((file) => file.blobId);
      await this.client.packageFile.deleteMany({ where: { versionId: existing.id } });
      await this.client.packageVersion.update({
        where: { id: existing.id },
        data: { metadataJson: entry.metadataJson, isInternal: false },
      });
      versionId = existing.id;
    } else {
      const created = await this.client.packageVersion.create({
        data: {
          packageId: pkg.id,
          creatorId: entry.creatorId,
          version: entry.version,
          lowerVersion,
          metadataJson: entry.metadataJson,
        },
      });
      versionId = created.id;
    }
    const manifestBlob = await upsertBlobRow(this.client, entry.manifest);
    const files = [
      { versionId, blobId: manifestBlob.id, name: MANIFEST_FILE, lowerName: MANIFEST_FILE, isLead: true },
      ...entry.references.map((ref) => ({
        versionId,
        blobId: ref.blobId,
        name: ref.digest,
        lowerName: ref.digest.toLowerCase(),
        isLead: false,
      })),
    ];
    for (const file of files) await this.client.packageFile.create({ data: file });
    // Uploaded blobs the manifest now keeps are no longer counted twice against the owner.
    const uploads = await this.client.packageFile.findMany({
      where: {
        lowerName: { in: entry.references.map((ref) => ref.digest.toLowerCase()) },
        version: { packageId: pkg.id, lowerVersion: UPLOAD_VERSION },
      },
      select: { id: true, blobId: true },
    });
    await this.client.packageFile.deleteMany({ where: { id: { in: uploads.map((file) => file.id) } } });
    const orphans = await deleteOrphanBlobRows(this.client, this.provider, [
      ...replaced,
      ...uploads.map((file) => file.blobId),
    ]);
    return { orphans, created: !existing };
  }

  /** Deletes the image's upload files of these names; answers the orphaned hashes. Run it in a transaction. */
  async deleteUploadFiles(key: ImageKey, names: readonly string[]): Promise<string[]> {
    const files = await this.client.packageFile.findMany({
      where: {
        lowerName: { in: names.map((name) => name.toLowerCase()) },
        version: { lowerVersion: UPLOAD_VERSION, package: packageWhere(key) },
      },
      select: { id: true, blobId: true },
    });
    await this.client.packageFile.deleteMany({ where: { id: { in: files.map((file) => file.id) } } });
    return deleteOrphanBlobRows(
      this.client,
      this.provider,
      files.map((file) => file.blobId),
    );
  }

  /** Names of upload-version files created before the cut-off, by image. */
  async listUploadFilesBefore(cutoff: Date): Promise<{ key: ImageKey; name: string }[]> {
    const files = await this.client.packageFile.findMany({
      where: {
        createdAt: { lt: cutoff },
        version: { lowerVersion: UPLOAD_VERSION, isInternal: true, package: { type: CONTAINER_TYPE } },
      },
      select: { name: true, version: { select: { package: { select: { ownerId: true, lowerName: true } } } } },
    });
    return files.map((file) => ({
      key: { ownerId: file.version.package.ownerId, image: file.version.package.lowerName },
      name: file.name,
    }));
  }

  // ---- upload sessions ----

  createUpload(id: string, key: ImageKey): Promise<ContainerUploadRow> {
    return this.client.containerUpload.create({ data: { id, ownerId: key.ownerId, image: key.image.toLowerCase() } });
  }

  findUpload(id: string, key: ImageKey): Promise<ContainerUploadRow | null> {
    return this.client.containerUpload.findFirst({
      where: { id, ownerId: key.ownerId, image: key.image.toLowerCase() },
    });
  }

  /** Records one more chunk if the upload is still where the chunk started; false when another chunk came first. */
  async advanceUpload(id: string, fromBytes: number, addedBytes: number): Promise<boolean> {
    const { count } = await this.client.containerUpload.updateMany({
      where: { id, bytes: BigInt(fromBytes) },
      data: { bytes: BigInt(fromBytes + addedBytes), parts: { increment: 1 }, updatedAt: new Date() },
    });
    return count === 1;
  }

  /** The chunks of an upload, in order. */
  async listUploadParts(id: string, key: ImageKey): Promise<ContainerFileRow[]> {
    const parts = await this.client.packageFile.findMany({
      where: {
        lowerName: { startsWith: `${id.toLowerCase()}/` },
        version: { lowerVersion: UPLOAD_VERSION, package: packageWhere(key) },
      },
      include: FILE_INCLUDE,
    });
    const index = (file: ContainerFileRow) => Number(file.name.slice(id.length + 1));
    return parts.sort((a, b) => index(a) - index(b));
  }

  async deleteUpload(id: string): Promise<boolean> {
    const { count } = await this.client.containerUpload.deleteMany({ where: { id } });
    return count === 1;
  }

  listUploadsBefore(cutoff: Date): Promise<ContainerUploadRow[]> {
    return this.client.containerUpload.findMany({ where: { updatedAt: { lt: cutoff } } });
  }
}
