// What an Arch package says about itself in its .PKGINFO (makepkg writes `key = value` lines, repeated keys for
// lists), checked as pacman names things, and the `desc` entry of a repository database that lists it
// (Forgejo: modules/packages/arch/metadata.go; pacman's repo-add writes the same fields).
import { BadRequestError } from '../../domain/errors.ts';

export interface PkgInfo {
  name: string;
  base: string;
  /** `[epoch:]pkgver-pkgrel`. */
  version: string;
  description: string;
  url: string;
  buildDate: number;
  packager: string;
  installedSize: number;
  arch: string;
  licenses: string[];
  groups: string[];
  provides: string[];
  depends: string[];
  optDepends: string[];
  makeDepends: string[];
  checkDepends: string[];
  conflicts: string[];
  replaces: string[];
}

const NAME = /^[a-z0-9@_+][a-z0-9@._+-]*$/;
const VERSION = /^(?:\d+:)?[A-Za-z0-9._+~]+-[0-9][0-9.]*$/;
const ARCH = /^[A-Za-z0-9_]+$/;
const MAX_VALUES = 10_000;

const LISTS = {
  license: 'licenses',
  group: 'groups',
  provides: 'provides',
  depend: 'depends',
  optdepend: 'optDepends',
  makedepend: 'makeDepends',
  checkdepend: 'checkDepends',
  conflict: 'conflicts',
  replaces: 'replaces',
} as const satisfies Record<string, keyof PkgInfo>;

export function parsePkgInfo(text: string): PkgInfo {
  const single = new Map<string, string>();
  const lists = Object.fromEntries(Object.values(LISTS).map((field) => [field, [] as string[]])) as Record<
    (typeof LISTS)[keyof typeof LISTS],
    string[]
  >;
  let values = 0;
  for (const line of text.split('\n')) {
    const at = line.indexOf(' = ');
    if (line.startsWith('#') || at < 0) continue;
    if (++values > MAX_VALUES) throw new BadRequestError('the .PKGINFO has too many entries');
    const key = line.slice(0, at);
    const value = line.slice(at + 3).trim();
    const list = LISTS[key as keyof typeof LISTS];
    if (list) lists[list].push(value);
    else single.set(key, value);
  }
  const name = single.get('pkgname') ?? '';
  const version = single.get('pkgver') ?? '';
  const arch = single.get('arch') ?? '';
  if (!NAME.test(name)) throw new BadRequestError('the package has no valid pkgname');
  if (!VERSION.test(version)) throw new BadRequestError('the package has no valid pkgver');
  if (!ARCH.test(arch)) throw new BadRequestError('the package has no valid arch');
  return {
    name,
    base: single.get('pkgbase') ?? name,
    version,
    description: single.get('pkgdesc') ?? '',
    url: single.get('url') ?? '',
    buildDate: Number(single.get('builddate') ?? 0) || 0,
    packager: single.get('packager') ?? '',
    installedSize: Number(single.get('size') ?? 0) || 0,
    arch,
    ...lists,
  };
}

export interface StoredArchFile {
  fileName: string;
  size: number;
  md5: string;
  sha256: string;
  /** The package's detached OpenPGP signature, base64. */
  pgpSig: string;
}

function field(name: string, value: string | number | string[] | undefined): string {
  if (value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) return '';
  return `%${name}%\n${Array.isArray(value) ? value.join('\n') : value}\n\n`;
}

/** The `desc` file of the package's entry in a repository database. */
export function descEntry(info: PkgInfo, file: StoredArchFile): string {
  return [
    field('FILENAME', file.fileName),
    field('NAME', info.name),
    field('BASE', info.base),
    field('VERSION', info.version),
    field('DESC', info.description),
    field('GROUPS', info.groups),
    field('CSIZE', file.size),
    field('ISIZE', info.installedSize),
    field('MD5SUM', file.md5),
    field('SHA256SUM', file.sha256),
    field('PGPSIG', file.pgpSig),
    field('URL', info.url),
    field('LICENSE', info.licenses),
    field('ARCH', info.arch),
    field('BUILDDATE', info.buildDate),
    field('PACKAGER', info.packager),
    field('REPLACES', info.replaces),
    field('CONFLICTS', info.conflicts),
    field('PROVIDES', info.provides),
    field('DEPENDS', info.depends),
    field('OPTDEPENDS', info.optDepends),
    field('MAKEDEPENDS', info.makeDepends),
    field('CHECKDEPENDS', info.checkDepends),
  ].join('');
}
