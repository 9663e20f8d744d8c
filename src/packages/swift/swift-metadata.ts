// What a Swift release keeps (Forgejo: modules/packages/swift Metadata): its manifests and what the publisher's
// schema.org SoftwareSourceCode said of it, and the answers built from it (SE-0292 4.2, release metadata).
import { BadRequestError } from '../../domain/errors.ts';
import { httpUrlOrEmpty } from '../../lib/http-url.ts';
import type { SwiftManifests } from './swift-archive.ts';

export interface SwiftPerson {
  name?: string;
  givenName?: string;
  middleName?: string;
  familyName?: string;
}

export interface SwiftMetadata {
  description?: string;
  keywords?: string[];
  repository_url?: string;
  license?: string;
  author?: SwiftPerson;
  manifests: SwiftManifests;
}

export interface SwiftPublisherMetadata {
  metadata: SwiftMetadata;
  /** The URLs the package may be looked up by (`repositoryURLs`). */
  repositoryUrls: string[];
}

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

function strings(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const items = value.filter((item): item is string => typeof item === 'string').slice(0, 100);
  return items.length > 0 ? items : undefined;
}

/** The publisher's `metadata` part (may be empty) with the archive's manifests; malformed JSON answers 400. */
export function readPublisherMetadata(json: string, manifests: SwiftManifests): SwiftPublisherMetadata {
  if (json.trim() === '') return { metadata: { manifests }, repositoryUrls: [] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new BadRequestError('the metadata part is not JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new BadRequestError('the metadata part is not a JSON object');
  }
  const source = parsed as Record<string, unknown>;
  const author = (typeof source.author === 'object' && source.author !== null ? source.author : {}) as Record<
    string,
    unknown
  >;
  const person: SwiftPerson = {
    givenName: text(author.givenName),
    middleName: text(author.middleName),
    familyName: text(author.familyName),
  };
  person.name =
    text(author.name) ??
    ([person.givenName, person.middleName, person.familyName].filter(Boolean).join(' ') || undefined);
  return {
    metadata: {
      description: text(source.description),
      keywords: strings(source.keywords),
      repository_url: httpUrlOrEmpty(source.codeRepository) || undefined,
      license: text(source.license),
      author: person,
      manifests,
    },
    repositoryUrls: (strings(source.repositoryURLs) ?? []).filter((url) => url.length <= 2048),
  };
}

/** The release's metadata as a registry answers it (SE-0292 4.2): the source archive and SoftwareSourceCode. */
export function releaseMetadata(id: string, name: string, version: string, checksum: string, metadata: SwiftMetadata) {
  const author = metadata.author ?? {};
  return {
    id,
    version,
    resources: [{ name: 'source-archive', type: 'application/zip', checksum }],
    metadata: {
      '@context': ['http://schema.org/'],
      '@type': 'SoftwareSourceCode',
      name,
      version,
      ...(metadata.description ? { description: metadata.description } : {}),
      ...(metadata.keywords ? { keywords: metadata.keywords } : {}),
      ...(metadata.repository_url ? { codeRepository: metadata.repository_url } : {}),
      ...(metadata.license ? { license: metadata.license } : {}),
      author: { '@type': 'Person', ...author },
      programmingLanguage: { '@type': 'ComputerLanguage', name: 'Swift', url: 'https://swift.org' },
    },
  };
}
