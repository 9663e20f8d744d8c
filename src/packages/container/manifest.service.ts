// Container manifests, tags and referrers (Forgejo: routers/api/packages/container manifest.go, services/packages/
// container). A manifest is stored as the lead file of its version (the tag, or its digest when pushed by digest
// alone); the blobs it uses are files of that version too, so they stay while it does. The version's metadata is
// Forgejo's (type, is_tagged, platform, labels, layers, manifests) plus what serving it needs (media type, digest,
// subject, artifact type, annotations).
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { ImageKey } from '../../db/container.repository.ts';
import type { Repositories } from '../../db/repositories.ts';
import type { User } from '../../db/entities.ts';
import type { QuotaService } from '../../services/quota.service.ts';
import type { ServiceDeps } from '../../services/service-deps.ts';
import { receivePackageBlob } from '../core/receive-blob.ts';
import { removeUnreferencedBlobs } from '../core/remove-blobs.ts';
import { type ImageTarget, retryOnRace } from './blob.service.ts';
import {
  type Descriptor,
  IMAGE_CONFIG_TYPES,
  type ManifestDocument,
  MediaType,
  parseManifest,
  summariseImageConfig,
} from './manifest-document.ts';
import { digestInvalid, manifestBlobUnknown, manifestInvalid, manifestUnknown, nameUnknown } from './oci-error.ts';
import { ManifestBytes } from './manifest-bytes.ts';
import { isTag, parseDigest } from './references.ts';

/** Configs larger than this are not read for the metadata (they are still stored and served). */
const MAX_CONFIG_READ = 4 * 1024 * 1024;

/** What serving a manifest needs, from its version's metadata. */
export interface ManifestMetadata {
  type: 'oci';
  is_tagged: boolean;
  platform?: string;
  labels?: Record<string, string>;
  image_layers?: string[];
  manifests?: { platform?: string; digest: string; size: number }[];
  media_type: string;
  digest: string;
  subject?: string;
  artifact_type?: string;
  annotations?: Record<string, string>;
}

export interface StoredManifest {
  mediaType: string;
  digest: string;
  size: number;
  sha256: string;
}

export interface PushedManifest {
  digest: string;
  subject?: string;
}

const keyOf = (target: ImageTarget): ImageKey => ({ ownerId: target.owner.id, image: target.image });

/**
 * In the manifest's transaction: the blobs it names are still the image's, under their hashes' locks (a blob
 * DELETE takes the same lock before its files go), so no removal can take them between the check and the write.
 */
async function confirmReferences(
  repos: Repositories,
  target: ImageTarget,
  blobs: readonly { digest: string; blobId: number; hash: string }[],
): Promise<void> {
  await repos.packageBlobs.lockHashes(blobs.map((blob) => blob.hash));
  for (const { digest, blobId } of blobs) {
    const found = await repos.containers.findBlob(keyOf(target), digest);
    if (found?.blob.id !== blobId) throw manifestBlobUnknown(digest);
  }
}

function platformOf(descriptor: Descriptor): string | undefined {
  const { os, architecture, variant } = descriptor.platform ?? {};
  const parts = [os, architecture, variant].filter((part) => part);
  return parts.length > 0 ? parts.join('/') : undefined;
}

export class ContainerManifestService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly quota: QuotaService,
  ) {}

  private readonly manifestBytes = new ManifestBytes((sha256) => this.deps.packageBlobs.get(sha256));

  private get containers() {
    return this.deps.repos.containers;
  }

  /** PUT …/manifests/{reference}: checks what it refers to, stores it, and tags it when the reference is a tag. */
  async push(
    doer: User,
    target: ImageTarget,
    reference: string,
    bytes: Buffer,
    contentType?: string,
  ): Promise<PushedManifest> {
    const byDigest = parseDigest(reference);
    if (!byDigest && !isTag(reference)) throw manifestInvalid('the tag is invalid');
    const document = parseManifest(bytes, contentType);
    const digest = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
    if (byDigest && createHash(byDigest.algorithm).update(bytes).digest('hex') !== byDigest.hex) {
      throw digestInvalid('the manifest does not have the digest of the reference');
    }
    const references = await this.resolveReferences(target, document);
    const metadata = await this.metadata(
      document,
      references.configHash,
      !byDigest,
      reference.startsWith('sha512:') ? reference : digest,
    );
    await this.quota.assertWithin(target.owner, 'size:assets:packages:all');
    const received = await receivePackageBlob(this.deps, this.quota, {
      owner: target.owner,
      body: Readable.from([bytes]),
      announcedLength: bytes.length,
    });
    try {
      const { orphans } = await retryOnRace(() =>
        received.commit(async (repos) => {
          await confirmReferences(repos, target, references.blobs);
          return repos.containers.writeManifestVersion({
            key: keyOf(target),
            version: reference,
            creatorId: doer.id,
            metadataJson: JSON.stringify(metadata),
            manifest: received.digests,
            references: references.blobs,
          });
        }),
      );
      await removeUnreferencedBlobs(this.deps, orphans);
    } finally {
      await received.close();
    }
    return { digest: metadata.digest, subject: document.subject?.digest };
  }

  /** The manifest a tag or digest names. */
  async find(target: ImageTarget, reference: string): Promise<StoredManifest> {
    const digest = parseDigest(reference);
    if (!digest && !isTag(reference)) throw manifestUnknown(reference);
    const found = await this.containers.findManifest(keyOf(target), digest ?? { tag: reference });
    if (!found) throw manifestUnknown(reference);
    const metadata = JSON.parse(found.metadataJson) as ManifestMetadata;
    return {
      mediaType: metadata.media_type,
      // By digest: the digest asked for (the same bytes may have been pushed under the other algorithm's).
      digest: digest ? reference : metadata.digest,
      size: found.size,
      sha256: found.hashSha256,
    };
  }

  bytes(manifest: StoredManifest): Promise<Buffer> {
    return this.manifestBytes.get(manifest.sha256);
  }

  /** DELETE: a tag untags; a digest removes every version with that manifest. The blobs go when nothing keeps them. */
  async delete(target: ImageTarget, reference: string): Promise<void> {
    const digest = parseDigest(reference);
    const files = digest
      ? await this.containers.findByManifestHash(keyOf(target), digest.algorithm, digest.hex)
      : [await this.containers.findTagged(keyOf(target), reference)].filter((file) => file !== null);
    if (files.length === 0) throw manifestUnknown(reference);
    const orphans = await this.deps.transactions.run(async (repos) => {
      const hashes: string[] = [];
      for (const file of files) hashes.push(...(await repos.packages.deleteVersion(file.version)));
      return hashes;
    });
    await removeUnreferencedBlobs(this.deps, orphans);
  }

  /** Tags in order after `last`; `more` when there are others after the page. */
  async tags(target: ImageTarget, limit: number, last: string): Promise<{ tags: string[]; more: boolean }> {
    if (!(await this.containers.imageExists(keyOf(target)))) throw nameUnknown(target.image);
    const found = await this.containers.listTags(keyOf(target), last, limit + 1);
    return { tags: found.slice(0, limit), more: found.length > limit };
  }

  /** GET /v2/_catalog: the images of owners the viewer may see, in order after `last`; `more` as for tags. */
  async catalog(viewer: User | null, limit: number, last: string): Promise<{ names: string[]; more: boolean }> {
    const found = await this.containers.listImageNames(viewer, last, limit + 1);
    return { names: found.slice(0, limit), more: found.length > limit };
  }

  /** The referrers API: descriptors of the manifests whose subject is the digest, optionally of one artifact type. */
  async referrers(target: ImageTarget, digest: string, artifactType?: string): Promise<Descriptor[]> {
    if (!parseDigest(digest)) throw digestInvalid('the digest is malformed');
    const versions = await this.containers.listMentioning(keyOf(target), digest);
    const found = new Map<string, Descriptor>();
    for (const version of versions) {
      const metadata = JSON.parse(version.metadataJson) as ManifestMetadata;
      const file = version.files[0];
      if (!file || metadata.subject !== digest || found.has(metadata.digest)) continue;
      if (artifactType !== undefined && metadata.artifact_type !== artifactType) continue;
      const entry: Descriptor = {
        mediaType: metadata.media_type,
        digest: metadata.digest,
        size: Number(file.blob.size),
      };
      if (metadata.artifact_type) entry.artifactType = metadata.artifact_type;
      if (metadata.annotations) entry.annotations = metadata.annotations;
      found.set(metadata.digest, entry);
    }
    return [...found.values()];
  }

  /** Every blob an image manifest uses must be in the image, and every manifest an index lists. */
  private async resolveReferences(target: ImageTarget, document: ManifestDocument) {
    const blobs = new Map<string, { blobId: number; hash: string }>();
    let configHash: string | null = null;
    if (document.isIndex) {
      for (const child of document.children) {
        const digest = parseDigest(child.digest);
        const found = digest
          ? await this.containers.findByManifestHash(keyOf(target), digest.algorithm, digest.hex)
          : [];
        if (found.length === 0) throw manifestBlobUnknown(child.digest);
      }
      return { blobs: [], configHash };
    }
    for (const item of [document.config!, ...document.children]) {
      const found = await this.containers.findBlob(keyOf(target), item.digest);
      if (!found) throw manifestBlobUnknown(item.digest);
      if (Number(found.blob.size) !== item.size)
        throw manifestInvalid(`the size of ${item.digest} is ${found.blob.size}, not ${item.size}`);
      blobs.set(item.digest, { blobId: found.blob.id, hash: found.blob.hashSha256 });
      if (item === document.config) configHash = found.blob.hashSha256;
    }
    return { blobs: [...blobs].map(([digest, found]) => ({ digest, ...found })), configHash };
  }

  private async metadata(
    document: ManifestDocument,
    configHash: string | null,
    isTagged: boolean,
    digest: string,
  ): Promise<ManifestMetadata> {
    const metadata: ManifestMetadata = { type: 'oci', is_tagged: isTagged, media_type: document.mediaType, digest };
    if (document.subject) metadata.subject = document.subject.digest;
    if (document.artifactType) metadata.artifact_type = document.artifactType;
    if (document.annotations) metadata.annotations = document.annotations;
    if (document.isIndex) {
      metadata.manifests = document.children.map((child) => ({
        platform: platformOf(child),
        digest: child.digest,
        size: child.size,
      }));
      return metadata;
    }
    const config = document.config!;
    if (configHash && IMAGE_CONFIG_TYPES.has(config.mediaType) && config.size <= MAX_CONFIG_READ) {
      const chunks: Buffer[] = [];
      for await (const chunk of await this.deps.packageBlobs.get(configHash)) chunks.push(chunk as Buffer);
      const summary = summariseImageConfig(Buffer.concat(chunks));
      if (summary.platform) metadata.platform = summary.platform;
      if (summary.labels) metadata.labels = summary.labels;
      if (summary.layerCommands) metadata.image_layers = summary.layerCommands;
    }
    return metadata;
  }
}

export { MediaType };
