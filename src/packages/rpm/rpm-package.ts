// What the RPM registry reads from an uploaded .rpm's headers (rpm's lib/rpmtag.h numbers the tags): the name,
// epoch, version, release and architecture the repository files it under, the descriptive fields dnf shows, the
// dependencies it resolves with, the file list and the changelog (Forgejo: modules/packages/rpm/metadata.go).
import { BadRequestError } from '../../domain/errors.ts';
import { readRpmHeaders, type RpmHeader, type TagValue } from './rpm-header.ts';

const TAG = {
  name: 1000,
  version: 1001,
  release: 1002,
  epoch: 1003,
  summary: 1004,
  description: 1005,
  buildTime: 1006,
  buildHost: 1007,
  size: 1009,
  vendor: 1011,
  license: 1014,
  packager: 1015,
  group: 1016,
  url: 1020,
  arch: 1022,
  fileModes: 1030,
  fileFlags: 1037,
  sourceRpm: 1044,
  provideName: 1047,
  requireFlags: 1048,
  requireName: 1049,
  requireVersion: 1050,
  conflictFlags: 1053,
  conflictName: 1054,
  conflictVersion: 1055,
  changelogTime: 1080,
  changelogName: 1081,
  changelogText: 1082,
  obsoleteName: 1090,
  provideFlags: 1112,
  provideVersion: 1113,
  obsoleteFlags: 1114,
  obsoleteVersion: 1115,
  dirIndexes: 1116,
  baseNames: 1117,
  dirNames: 1118,
  longSize: 5009,
} as const;

const SIGNATURE_TAG = { payloadSize: 1007, longArchiveSize: 271 } as const;

const SENSE = { less: 2, greater: 4, equal: 8, prereq: 64, scriptPre: 1 << 9, scriptPost: 1 << 10, rpmlib: 1 << 24 };
const FILE_GHOST = 64;
const MODE_TYPE = 0o170000;
const MODE_DIR = 0o040000;
/** The files createrepo lists in primary.xml as well, so that `dnf install /usr/bin/x` resolves without filelists. */
const PRIMARY_FILE = /^(\/etc\/|\/usr\/lib\/sendmail$)|bin\//;
const NAME = /^[A-Za-z0-9_+][A-Za-z0-9._+-]*$/;
const EVR_PART = /^[A-Za-z0-9._+~^]+$/;

export type DependencyFlags = 'EQ' | 'LT' | 'LE' | 'GT' | 'GE';

export interface RpmDependency {
  name: string;
  flags?: DependencyFlags;
  epoch?: string;
  version?: string;
  release?: string;
  /** Needed before the package's scripts run (createrepo's pre="1"). */
  pre?: boolean;
}

export interface RpmFileEntry {
  path: string;
  type?: 'dir' | 'ghost';
  /** Also listed in primary.xml. */
  primary?: boolean;
}

export interface RpmChangelog {
  author: string;
  date: number;
  text: string;
}

export interface RpmPackage {
  name: string;
  epoch: string;
  version: string;
  release: string;
  arch: string;
  summary: string;
  description: string;
  license: string;
  url: string;
  vendor: string;
  group: string;
  packager: string;
  sourceRpm: string;
  buildHost: string;
  buildTime: number;
  installedSize: number;
  archiveSize: number;
  headerStart: number;
  headerEnd: number;
  provides: RpmDependency[];
  requires: RpmDependency[];
  conflicts: RpmDependency[];
  obsoletes: RpmDependency[];
  files: RpmFileEntry[];
  changelogs: RpmChangelog[];
}

/** The version the registry files a package under (Forgejo's): `[epoch-]version-release`. */
export function rpmVersionString(pkg: Pick<RpmPackage, 'epoch' | 'version' | 'release'>): string {
  const plain = `${pkg.version}-${pkg.release}`;
  return pkg.epoch && pkg.epoch !== '0' ? `${pkg.epoch}-${plain}` : plain;
}

/** The stored file's name: `name-version.arch.rpm`. */
export function rpmFileName(pkg: Pick<RpmPackage, 'name' | 'epoch' | 'version' | 'release' | 'arch'>): string {
  return `${pkg.name}-${rpmVersionString(pkg)}.${pkg.arch}.rpm`;
}

/** Reads an rpm's metadata from its first bytes (rpm-header.ts rpmHeadersLength of them); 400 when it is none. */
export function parseRpmPackage(headers: Buffer): RpmPackage {
  const { signature, main } = readRpmHeaders(headers);
  const tags = new TagReader(main);
  const name = tags.string(TAG.name);
  const version = tags.string(TAG.version);
  const release = tags.string(TAG.release);
  const sourceRpm = tags.string(TAG.sourceRpm);
  // A source package names no source rpm; rpm calls its architecture "src".
  const arch = sourceRpm ? tags.string(TAG.arch) : 'src';
  if (!NAME.test(name)) throw new BadRequestError('the rpm package has no valid name');
  for (const [what, value] of [
    ['version', version],
    ['release', release],
    ['architecture', arch],
  ]) {
    if (!EVR_PART.test(value)) throw new BadRequestError(`the rpm package has no valid ${what}`);
  }
  const signatureTags = new TagReader(signature);
  return {
    name,
    epoch: String(tags.numbers(TAG.epoch)[0] ?? 0),
    version,
    release,
    arch,
    summary: tags.string(TAG.summary),
    description: tags.string(TAG.description),
    license: tags.string(TAG.license),
    url: tags.string(TAG.url),
    vendor: tags.string(TAG.vendor),
    group: tags.string(TAG.group),
    packager: tags.string(TAG.packager),
    sourceRpm,
    buildHost: tags.string(TAG.buildHost),
    buildTime: tags.numbers(TAG.buildTime)[0] ?? 0,
    installedSize: tags.numbers(TAG.longSize)[0] ?? tags.numbers(TAG.size)[0] ?? 0,
    archiveSize:
      signatureTags.numbers(SIGNATURE_TAG.longArchiveSize)[0] ??
      signatureTags.numbers(SIGNATURE_TAG.payloadSize)[0] ??
      0,
    headerStart: main.start,
    headerEnd: main.end,
    provides: dependencies(tags, TAG.provideName, TAG.provideFlags, TAG.provideVersion),
    requires: dependencies(tags, TAG.requireName, TAG.requireFlags, TAG.requireVersion),
    conflicts: dependencies(tags, TAG.conflictName, TAG.conflictFlags, TAG.conflictVersion),
    obsoletes: dependencies(tags, TAG.obsoleteName, TAG.obsoleteFlags, TAG.obsoleteVersion),
    files: fileList(tags),
    changelogs: changelogs(tags),
  };
}

class TagReader {
  constructor(private readonly header: RpmHeader) {}

  private value(tag: number): TagValue | undefined {
    return this.header.tags.get(tag);
  }

  string(tag: number): string {
    const value = this.value(tag);
    if (typeof value === 'string') return value;
    return Array.isArray(value) && typeof value[0] === 'string' ? value[0] : '';
  }

  strings(tag: number): string[] {
    const value = this.value(tag);
    if (typeof value === 'string') return [value];
    return Array.isArray(value) && value.every((item) => typeof item === 'string') ? (value as string[]) : [];
  }

  numbers(tag: number): number[] {
    const value = this.value(tag);
    return Array.isArray(value) && value.every((item) => typeof item === 'number') ? (value as number[]) : [];
  }
}

function comparison(flags: number): DependencyFlags | undefined {
  const less = (flags & SENSE.less) !== 0;
  const greater = (flags & SENSE.greater) !== 0;
  const equal = (flags & SENSE.equal) !== 0;
  if (greater) return equal ? 'GE' : 'GT';
  if (less) return equal ? 'LE' : 'LT';
  return equal ? 'EQ' : undefined;
}

function dependencies(tags: TagReader, nameTag: number, flagsTag: number, versionTag: number): RpmDependency[] {
  const names = tags.strings(nameTag);
  const flags = tags.numbers(flagsTag);
  const versions = tags.strings(versionTag);
  const found: RpmDependency[] = [];
  names.forEach((name, i) => {
    const flag = flags[i] ?? 0;
    // rpm's own capabilities (rpmlib(…)) are met by rpm itself; createrepo leaves them out of the index.
    if (flag & SENSE.rpmlib || name.startsWith('rpmlib(')) return;
    const entry: RpmDependency = { name };
    const compared = comparison(flag);
    const evr = versions[i] ?? '';
    if (compared && evr) Object.assign(entry, { flags: compared }, splitEvr(evr));
    if (flag & (SENSE.prereq | SENSE.scriptPre | SENSE.scriptPost)) entry.pre = true;
    found.push(entry);
  });
  return found;
}

function splitEvr(evr: string): { epoch: string; version: string; release?: string } {
  const colon = evr.indexOf(':');
  const epoch = colon > 0 ? evr.slice(0, colon) : '0';
  const rest = colon > 0 ? evr.slice(colon + 1) : evr;
  const dash = rest.lastIndexOf('-');
  return dash > 0 ? { epoch, version: rest.slice(0, dash), release: rest.slice(dash + 1) } : { epoch, version: rest };
}

function fileList(tags: TagReader): RpmFileEntry[] {
  const baseNames = tags.strings(TAG.baseNames);
  const dirNames = tags.strings(TAG.dirNames);
  const dirIndexes = tags.numbers(TAG.dirIndexes);
  const modes = tags.numbers(TAG.fileModes);
  const flags = tags.numbers(TAG.fileFlags);
  const files: RpmFileEntry[] = [];
  baseNames.forEach((base, i) => {
    const dir = dirNames[dirIndexes[i] ?? -1];
    if (dir === undefined) return;
    const path = dir + base;
    const entry: RpmFileEntry = { path };
    if ((flags[i] ?? 0) & FILE_GHOST) entry.type = 'ghost';
    else if (((modes[i] ?? 0) & MODE_TYPE) === MODE_DIR) entry.type = 'dir';
    if (PRIMARY_FILE.test(path)) entry.primary = true;
    files.push(entry);
  });
  return files;
}

function changelogs(tags: TagReader): RpmChangelog[] {
  const times = tags.numbers(TAG.changelogTime);
  const authors = tags.strings(TAG.changelogName);
  const texts = tags.strings(TAG.changelogText);
  if (times.length !== authors.length || times.length !== texts.length) return [];
  return times.map((date, i) => ({ date, author: authors[i]!, text: texts[i]! }));
}
