// maven-metadata.xml as Maven reads it (Maven's repository metadata model 1.1.0), built from the stored versions
// and files: per artifact its versions, latest, release and lastUpdated; per SNAPSHOT version its newest
// timestamped build and the file of each classifier and extension.
import { XMLBuilder } from 'fast-xml-parser';
import { isSnapshotVersion } from './maven-path.ts';
import { parseSnapshotFile, type SnapshotBuildFile } from './snapshot-file.ts';

const builder = new XMLBuilder({ format: true, indentBy: '  ', ignoreAttributes: false, attributeNamePrefix: '@' });
const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

export interface StoredVersion {
  version: string;
  createdAt: Date;
}

export interface StoredFile {
  name: string;
  createdAt: Date;
}

/** `yyyyMMddHHmmss`, UTC: Maven's lastUpdated. */
export function mavenTimestamp(time: Date): string {
  return time.toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

function document(body: Record<string, unknown>): string {
  return DECLARATION + builder.build({ metadata: { '@modelVersion': '1.1.0', ...body } });
}

/**
 * The artifact's metadata: versions in the order they were deployed (as Maven and Gradle expect), the newest as
 * latest and the newest that is not a SNAPSHOT as release. `versions` holds at least one, oldest first.
 */
export function artifactMetadataXml(groupId: string, artifactId: string, versions: readonly StoredVersion[]): string {
  const newest = versions[versions.length - 1];
  const release = [...versions].reverse().find((entry) => !isSnapshotVersion(entry.version));
  const lastUpdated = new Date(Math.max(...versions.map((entry) => entry.createdAt.getTime())));
  return document({
    groupId,
    artifactId,
    versioning: {
      latest: newest.version,
      ...(release ? { release: release.version } : {}),
      versions: { version: versions.map((entry) => entry.version) },
      lastUpdated: mavenTimestamp(lastUpdated),
    },
  });
}

/**
 * A SNAPSHOT version's metadata: the newest build (timestamp and number) and, per classifier and extension, the
 * newest build's file. Null when no file is a timestamped build.
 */
export function snapshotMetadataXml(
  groupId: string,
  artifactId: string,
  version: string,
  files: readonly StoredFile[],
): string | null {
  const newestPerKind = new Map<string, { build: SnapshotBuildFile; file: StoredFile }>();
  let newest: SnapshotBuildFile | null = null;
  for (const file of files) {
    const build = parseSnapshotFile(artifactId, version, file.name);
    if (!build) continue;
    if (!newest || isNewer(build, newest)) newest = build;
    const kind = `${build.classifier}\n${build.extension}`;
    const seen = newestPerKind.get(kind);
    if (!seen || isNewer(build, seen.build)) newestPerKind.set(kind, { build, file });
  }
  if (!newest) return null;
  const entries = [...newestPerKind.values()];
  const lastUpdated = new Date(Math.max(...entries.map((entry) => entry.file.createdAt.getTime())));
  return document({
    groupId,
    artifactId,
    version,
    versioning: {
      snapshot: { timestamp: newest.timestamp, buildNumber: newest.buildNumber },
      lastUpdated: mavenTimestamp(lastUpdated),
      snapshotVersions: {
        snapshotVersion: entries.map(({ build, file }) => ({
          ...(build.classifier ? { classifier: build.classifier } : {}),
          extension: build.extension,
          value: build.value,
          updated: mavenTimestamp(file.createdAt),
        })),
      },
    },
  });
}

function isNewer(build: SnapshotBuildFile, than: SnapshotBuildFile): boolean {
  return build.buildNumber !== than.buildNumber
    ? build.buildNumber > than.buildNumber
    : build.timestamp > than.timestamp;
}
