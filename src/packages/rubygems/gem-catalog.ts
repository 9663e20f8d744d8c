// An owner's gems as the specs files list them, built once per revision of its RubyGems packages (kept by the
// service in a core/revision-cache.ts): every version's specification from its stored metadata, the three gzipped
// specs lists, the compact index's files (made on first use), and the files by name for the quick specifications
// and downloads.
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { OwnerIndexedFile } from '../../db/owner-package-index.repository.ts';
import { type GemSpec, isPrerelease } from './gem-spec.ts';
import { type GemTuple, specsList } from './gem-index.ts';
import type { IndexDocument } from '../core/index-document.ts';
import { infoDocument, versionsDocument } from './compact-index.ts';

export interface CatalogGem {
  spec: GemSpec;
  versionId: number;
  fileName: string;
  /** The .gem's SHA-256, hex. */
  sha256: string;
}

export interface GemDocument {
  body: Buffer;
  etag: string;
}

export interface GemCatalog {
  /** By lower-case file name (`name-version[-platform].gem`). */
  byFileName: ReadonlyMap<string, CatalogGem>;
  /** By lower-case gem name, oldest version first. */
  byName: ReadonlyMap<string, CatalogGem[]>;
  specs: GemDocument;
  latestSpecs: GemDocument;
  prereleaseSpecs: GemDocument;
  /** The compact index's info file of a gem by lower-case name, or undefined for a gem the owner has not. */
  info(lowerName: string): IndexDocument | undefined;
  /** The compact index's versions file. */
  versions(): IndexDocument;
}

/** Gem::Version#<=>: numeric segments by value, a letter segment (a prerelease) below any number. */
export function compareGemVersions(a: string, b: string): number {
  const segments = (version: string) =>
    (version.match(/[0-9]+|[a-z]+/gi) ?? []).map((part) => (/^\d/.test(part) ? Number(part) : part));
  const left = segments(a);
  const right = segments(b);
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const x = left[i] ?? 0;
    const y = right[i] ?? 0;
    if (x === y) continue;
    if (typeof x === 'string' && typeof y === 'number') return -1;
    if (typeof x === 'number' && typeof y === 'string') return 1;
    return x < y ? -1 : 1;
  }
  return 0;
}

function specOf(file: OwnerIndexedFile): GemSpec {
  let stored: Partial<GemSpec> = {};
  try {
    stored = JSON.parse(file.metadataJson) as Partial<GemSpec>;
  } catch {
    // A version without readable metadata is still listed, with what its rows say.
  }
  return {
    summary: '',
    description: '',
    authors: [],
    email: '',
    homepage: '',
    licenses: [],
    requiredRubyVersion: [['>=', '0']],
    requiredRubygemsVersion: [['>=', '0']],
    runtimeDependencies: [],
    developmentDependencies: [],
    ...stored,
    platform: stored.platform ?? 'ruby',
    name: file.packageName,
    version: file.version,
  };
}

function document(tuples: GemTuple[]): GemDocument {
  const body = gzipSync(specsList(tuples));
  return { body, etag: `"${createHash('sha256').update(body).digest('hex').slice(0, 32)}"` };
}

const tupleOf = (gem: CatalogGem): GemTuple => ({
  name: gem.spec.name,
  version: gem.spec.version,
  platform: gem.spec.platform,
});

/** The compact index's documents, each made once, on its first request. */
function compactIndex(byName: ReadonlyMap<string, CatalogGem[]>): Pick<GemCatalog, 'info' | 'versions'> {
  const infos = new Map<string, IndexDocument>();
  let versions: IndexDocument | undefined;
  const info = (lowerName: string) => {
    const gems = byName.get(lowerName);
    if (!gems) return undefined;
    let made = infos.get(lowerName);
    if (!made) infos.set(lowerName, (made = infoDocument(gems)));
    return made;
  };
  return { info, versions: () => (versions ??= versionsDocument(byName, (name) => info(name)!)) };
}

export function buildGemCatalog(files: OwnerIndexedFile[]): GemCatalog {
  const gems = files.map((file) => ({
    spec: specOf(file),
    versionId: file.versionId,
    fileName: file.fileName,
    sha256: file.sha256,
  }));
  const byName = new Map<string, CatalogGem[]>();
  for (const gem of gems) {
    const key = gem.spec.name.toLowerCase();
    const versions = byName.get(key);
    if (versions) versions.push(gem);
    else byName.set(key, [gem]);
  }
  const releases = gems.filter((gem) => !isPrerelease(gem.spec.version));
  const latest = new Map<string, CatalogGem>();
  for (const gem of releases) {
    const key = `${gem.spec.name}\n${gem.spec.platform}`;
    const kept = latest.get(key);
    if (!kept || compareGemVersions(gem.spec.version, kept.spec.version) > 0) latest.set(key, gem);
  }
  return {
    byFileName: new Map(gems.map((gem) => [gem.fileName.toLowerCase(), gem])),
    byName,
    specs: document(releases.map(tupleOf)),
    latestSpecs: document([...latest.values()].map(tupleOf)),
    prereleaseSpecs: document(gems.filter((gem) => isPrerelease(gem.spec.version)).map(tupleOf)),
    ...compactIndex(byName),
  };
}
