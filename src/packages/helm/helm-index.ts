// A Helm repository's index.yaml (helm.sh/docs/topics/chart_repository; Forgejo: routers/api/packages/helm Index):
// every chart's versions, newest first, each with its Chart.yaml fields, download URL, creation time and digest.
import semver from 'semver';
import type * as YAML from 'yaml';
import type { IndexedFile } from '../../db/package-index.repository.ts';
import type { ChartMetadata } from './chart-yaml.ts';

export interface ChartVersionRow {
  metadata: ChartMetadata;
  fileName: string;
  created: Date;
  sha256: string;
}

/** Newest first by SemVer (spellings SemVer does not parse after, by text). */
function newestFirst(a: ChartVersionRow, b: ChartVersionRow): number {
  const [x, y] = [
    semver.coerce(a.metadata.version, { includePrerelease: true }),
    semver.coerce(b.metadata.version, { includePrerelease: true }),
  ];
  if (x && y) {
    const order = semver.rcompare(x, y);
    if (order !== 0) return order;
  }
  return b.metadata.version.localeCompare(a.metadata.version);
}

/** The chart versions of the rows of the owner's chart files (one file per version). */
export function chartVersions(files: readonly IndexedFile[]): ChartVersionRow[] {
  return files.map((file) => ({
    metadata: JSON.parse(file.metadataJson) as ChartMetadata,
    fileName: file.fileName,
    created: file.versionCreatedAt,
    sha256: file.sha256,
  }));
}

export function indexYaml(base: string, contextPath: string, versions: readonly ChartVersionRow[]): string {
  const entries: Record<string, unknown[]> = {};
  for (const row of [...versions].sort(newestFirst)) {
    (entries[row.metadata.name] ??= []).push({
      ...row.metadata,
      urls: [`${base}/${encodeURIComponent(row.fileName)}`],
      created: row.created.toISOString(),
      digest: row.sha256,
    });
  }
  return (require('yaml') as typeof YAML).stringify({
    apiVersion: 'v1',
    entries,
    generated: new Date().toISOString(),
    serverInfo: { contextPath },
  });
}
