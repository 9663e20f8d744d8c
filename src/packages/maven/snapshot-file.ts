// The file names of a SNAPSHOT version's timestamped builds, as `mvn deploy` writes them:
// `artifact-1.0-20240102.030405-7[-classifier].ext` for version `1.0-SNAPSHOT`.

export interface SnapshotBuildFile {
  /** `yyyyMMdd.HHmmss`, UTC. */
  timestamp: string;
  buildNumber: number;
  classifier: string;
  /** Everything after the first dot: `jar`, `pom`, `tar.gz`. */
  extension: string;
  /** The version this build is deployed as: `1.0-20240102.030405-7`. */
  value: string;
}

const BUILD = /^(\d{8}\.\d{6})-([1-9]\d{0,8})(?:-([^.]+))?\.(.+)$/;

/** The build a file of a SNAPSHOT version belongs to; null for a file that is not a timestamped build. */
export function parseSnapshotFile(artifactId: string, version: string, fileName: string): SnapshotBuildFile | null {
  const base = version.slice(0, -'-SNAPSHOT'.length);
  const prefix = `${artifactId}-${base}-`;
  if (!fileName.startsWith(prefix)) return null;
  const match = BUILD.exec(fileName.slice(prefix.length));
  if (!match) return null;
  const [, timestamp, build, classifier, extension] = match;
  return {
    timestamp,
    buildNumber: Number(build),
    classifier: classifier ?? '',
    extension,
    value: `${base}-${timestamp}-${build}`,
  };
}
