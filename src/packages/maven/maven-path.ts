// The paths Maven asks for under the registry: `group/path/artifact/version/file`, the artifact's
// `maven-metadata.xml`, a SNAPSHOT version's own `maven-metadata.xml`, each with an optional checksum suffix.

export const METADATA_FILE = 'maven-metadata.xml';

export const CHECKSUM_KINDS = ['md5', 'sha1', 'sha256', 'sha512'] as const;
export type ChecksumKind = (typeof CHECKSUM_KINDS)[number];

export interface MavenPath {
  groupId: string;
  artifactId: string;
  /** None for the artifact's maven-metadata.xml. */
  version: string | null;
  /** The file the path names, without its checksum suffix. */
  fileName: string;
  /** The checksum of the file that is asked for, if any. */
  checksum: ChecksumKind | null;
  isMetadata: boolean;
}

/** Characters no coordinate or file name may hold (Forgejo refuses the same), and control characters. */
const ILLEGAL = /[\\/:"<>|?*\u0000-\u001f\u007f]/;

const isSegment = (text: string) => text !== '' && text !== '.' && text !== '..' && !ILLEGAL.test(text);

export const isSnapshotVersion = (version: string) => version.endsWith('-SNAPSHOT');

/** `groupId:artifactId`, the package name Forgejo gives a Maven artifact. */
export const mavenPackageName = (path: Pick<MavenPath, 'groupId' | 'artifactId'>) =>
  `${path.groupId}:${path.artifactId}`;

function splitChecksum(name: string): { fileName: string; checksum: ChecksumKind | null } {
  const dot = name.lastIndexOf('.');
  const suffix = dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
  const kind = CHECKSUM_KINDS.find((candidate) => candidate === suffix);
  return kind ? { fileName: name.slice(0, dot), checksum: kind } : { fileName: name, checksum: null };
}

/** Reads the path after `/maven/`; null when it names nothing Maven asks for (400). */
export function parseMavenPath(path: string): MavenPath | null {
  const segments = path.split('/');
  if (segments.length < 3 || !segments.every(isSegment)) return null;
  const { fileName, checksum } = splitChecksum(segments.pop() as string);
  const isMetadata = fileName === METADATA_FILE;
  const last = segments[segments.length - 1];
  const version = isMetadata && !isSnapshotVersion(last) ? null : (segments.pop() as string);
  if (segments.length < 2) return null;
  const artifactId = segments.pop() as string;
  return { groupId: segments.join('.'), artifactId, version, fileName, checksum, isMetadata };
}
