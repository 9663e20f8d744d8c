// Manifests as clients push them: OCI image manifests and indexes, Docker schema 2 manifests and manifest lists
// (image-spec manifest.md, image-index.md; distribution manifest-v2-2). What a push must refer to and what the
// registry records about it (Forgejo: modules/packages/container metadata.go) are read here, pure.
import { manifestInvalid } from './oci-error.ts';
import { parseDigest } from './references.ts';

export const MediaType = {
  ociManifest: 'application/vnd.oci.image.manifest.v1+json',
  ociIndex: 'application/vnd.oci.image.index.v1+json',
  dockerManifest: 'application/vnd.docker.distribution.manifest.v2+json',
  dockerList: 'application/vnd.docker.distribution.manifest.list.v2+json',
  ociConfig: 'application/vnd.oci.image.config.v1+json',
  dockerConfig: 'application/vnd.docker.container.image.v1+json',
} as const;

const INDEX_TYPES = new Set<string>([MediaType.ociIndex, MediaType.dockerList]);
const MANIFEST_TYPES = new Set<string>([MediaType.ociManifest, MediaType.dockerManifest]);
export const IMAGE_CONFIG_TYPES = new Set<string>([MediaType.ociConfig, MediaType.dockerConfig]);

export interface Descriptor {
  mediaType: string;
  digest: string;
  size: number;
  artifactType?: string;
  annotations?: Record<string, string>;
  platform?: { os?: string; architecture?: string; variant?: string };
}

export interface ManifestDocument {
  mediaType: string;
  isIndex: boolean;
  /** An image manifest's config; null for an index. */
  config: Descriptor | null;
  /** An image manifest's layers, or an index's manifests. */
  children: Descriptor[];
  subject: Descriptor | null;
  /** The artifact type the referrers API reports: artifactType, else the config's media type. */
  artifactType?: string;
  annotations?: Record<string, string>;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function stringMap(value: unknown): Record<string, string> | undefined {
  if (!isObject(value)) return undefined;
  return Object.fromEntries(
    Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}

function descriptor(value: unknown, where: string): Descriptor {
  if (!isObject(value)) throw manifestInvalid(`${where} is not a descriptor`);
  const { mediaType, digest, size } = value;
  if (typeof mediaType !== 'string' || mediaType === '') throw manifestInvalid(`${where} has no media type`);
  if (typeof digest !== 'string' || !parseDigest(digest)) throw manifestInvalid(`${where} has an invalid digest`);
  if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0)
    throw manifestInvalid(`${where} has an invalid size`);
  const found: Descriptor = { mediaType, digest, size };
  if (typeof value.artifactType === 'string') found.artifactType = value.artifactType;
  const annotations = stringMap(value.annotations);
  if (annotations) found.annotations = annotations;
  if (isObject(value.platform)) found.platform = stringMap(value.platform);
  return found;
}

/**
 * Parses a pushed manifest. Its type is the request's Content-Type, else the document's mediaType, else what its
 * shape says; a document whose mediaType contradicts the Content-Type is invalid.
 */
export function parseManifest(bytes: Buffer, contentType: string | undefined): ManifestDocument {
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw manifestInvalid('the manifest is not valid JSON');
  }
  if (!isObject(json)) throw manifestInvalid('the manifest is not a JSON object');
  if (json.schemaVersion !== 2) throw manifestInvalid('the manifest schemaVersion must be 2');
  const declared = typeof json.mediaType === 'string' ? json.mediaType : undefined;
  const header = contentType?.split(';')[0].trim().toLowerCase() || undefined;
  const headerKnown = header && (INDEX_TYPES.has(header) || MANIFEST_TYPES.has(header)) ? header : undefined;
  if (headerKnown && declared && declared !== headerKnown)
    throw manifestInvalid('the manifest mediaType does not match the Content-Type');
  const mediaType =
    headerKnown ?? declared ?? (Array.isArray(json.manifests) ? MediaType.ociIndex : MediaType.ociManifest);
  if (!INDEX_TYPES.has(mediaType) && !MANIFEST_TYPES.has(mediaType))
    throw manifestInvalid(`unsupported manifest media type: ${mediaType}`);
  const isIndex = INDEX_TYPES.has(mediaType);
  const subject = json.subject === undefined ? null : descriptor(json.subject, 'subject');
  const annotations = stringMap(json.annotations);
  const explicitType = typeof json.artifactType === 'string' ? json.artifactType : undefined;
  if (isIndex) {
    if (!Array.isArray(json.manifests)) throw manifestInvalid('the index has no manifests list');
    const children = json.manifests.map((item, index) => descriptor(item, `manifests[${index}]`));
    return { mediaType, isIndex, config: null, children, subject, artifactType: explicitType, annotations };
  }
  const config = descriptor(json.config, 'config');
  if (!Array.isArray(json.layers)) throw manifestInvalid('the manifest has no layers list');
  const children = json.layers.map((item, index) => descriptor(item, `layers[${index}]`));
  return { mediaType, isIndex, config, children, subject, artifactType: explicitType ?? config.mediaType, annotations };
}

export interface ImageConfigSummary {
  platform?: string;
  labels?: Record<string, string>;
  layerCommands?: string[];
}

/** What Forgejo shows of an image's config: its platform, labels and the commands that made its layers. */
export function summariseImageConfig(bytes: Buffer): ImageConfigSummary {
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch {
    return {};
  }
  if (!isObject(json)) return {};
  const parts = [json.os, json.architecture, json.variant].filter(
    (part): part is string => typeof part === 'string' && part !== '',
  );
  const config = isObject(json.config) ? json.config : {};
  const history = Array.isArray(json.history) ? json.history : [];
  return {
    platform: parts.length > 0 ? parts.join('/') : undefined,
    labels: stringMap(config.Labels),
    layerCommands: history
      .filter(isObject)
      .map((entry) => entry.created_by)
      .filter((cmd): cmd is string => typeof cmd === 'string'),
  };
}
