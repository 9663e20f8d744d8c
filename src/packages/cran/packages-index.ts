// The PACKAGES index R's available.packages() reads, per tree: src/contrib (source packages, compositeKey '') and
// each bin/<platform>/contrib/<rversion> (binary builds, compositeKey `<platform>|<rversion>`). Each lists the
// newest version of every package that has a file in the tree, with the fields install.packages resolves by and
// the file's MD5 (Forgejo: routers/api/packages/cran EnumerateSourcePackages). Built once per revision of the
// owner's CRAN packages (kept by the service in a core/revision-cache.ts), plain and gzipped.
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { OwnerIndexedFile } from '../../db/owner-package-index.repository.ts';
import { type CranMetadata, compareCranVersions } from './description.ts';

export interface PackagesDocument {
  text: string;
  gzipped: Buffer;
  etag: string;
}

export interface CranCatalog {
  /** By tree (the files' compositeKey). */
  trees: ReadonlyMap<string, PackagesDocument>;
  /** By tree, then lower-case file name: the version id of the file. */
  files: ReadonlyMap<string, ReadonlyMap<string, { versionId: number; fileName: string }>>;
}

export const SOURCE_TREE = '';
export const binaryTree = (platform: string, rversion: string) => `${platform}|${rversion}`;

function metadataOf(json: string): Partial<CranMetadata> {
  try {
    return JSON.parse(json) as Partial<CranMetadata>;
  } catch {
    return {};
  }
}

function stanza(file: OwnerIndexedFile): string {
  const metadata = metadataOf(file.metadataJson);
  const lines = [`Package: ${file.packageName}`, `Version: ${file.version}`];
  const field = (name: string, values: string[] | undefined) => {
    if (values && values.length > 0) lines.push(`${name}: ${values.join(', ')}`);
  };
  field('Depends', metadata.depends);
  field('Imports', metadata.imports);
  field('LinkingTo', metadata.linkingTo);
  field('Suggests', metadata.suggests);
  if (metadata.license) lines.push(`License: ${metadata.license}`);
  lines.push(`NeedsCompilation: ${metadata.needsCompilation ? 'yes' : 'no'}`);
  lines.push(`MD5sum: ${file.md5}`);
  return lines.map((line) => line.replace(/\s*\n\s*/g, ' ')).join('\n');
}

function document(newest: OwnerIndexedFile[]): PackagesDocument {
  const text = newest.map(stanza).join('\n\n') + '\n';
  return { text, gzipped: gzipSync(text), etag: `"${createHash('sha256').update(text).digest('hex').slice(0, 32)}"` };
}

export function buildCranCatalog(rows: OwnerIndexedFile[]): CranCatalog {
  const newest = new Map<string, Map<string, OwnerIndexedFile>>();
  const files = new Map<string, Map<string, { versionId: number; fileName: string }>>();
  for (const row of rows) {
    const tree = row.compositeKey;
    if (!newest.has(tree)) newest.set(tree, new Map());
    if (!files.has(tree)) files.set(tree, new Map());
    files.get(tree)!.set(row.fileName.toLowerCase(), { versionId: row.versionId, fileName: row.fileName });
    const byName = newest.get(tree)!;
    const key = row.packageName.toLowerCase();
    const kept = byName.get(key);
    if (!kept || compareCranVersions(row.version, kept.version) > 0) byName.set(key, row);
  }
  const trees = new Map([...newest].map(([tree, byName]) => [tree, document([...byName.values()])]));
  return { trees, files };
}
