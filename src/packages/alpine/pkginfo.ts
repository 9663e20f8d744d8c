// An Alpine package's .PKGINFO as the registry keeps it (Forgejo: modules/packages/alpine): the name, version and
// architecture checked, the version's metadata for the API and the file's for the APKINDEX entry.
import { BadRequestError } from '../../domain/errors.ts';
import type { ApkControl } from './apk-file.ts';

const NAME = /^[A-Za-z0-9][A-Za-z0-9._+-]*$/;
const VERSION = /^[A-Za-z0-9][A-Za-z0-9._+~-]*$/;
const ARCHITECTURE = /^[a-z0-9_]+$/;
const TEXT_MAX = 4096;

export interface ApkVersionMetadata {
  description?: string;
  license?: string;
  project_url?: string;
  maintainer?: string;
}

/** What an APKINDEX entry needs of the file, kept as its alpine.metadata property. */
export interface ApkFileMetadata {
  checksum: string;
  architecture: string;
  size: number;
  origin?: string;
  build_date?: number;
  commit?: string;
  depends?: string[];
  provides?: string[];
  install_if?: string;
  provider_priority?: number;
}

export interface ApkPackage {
  name: string;
  version: string;
  architecture: string;
  versionMetadata: ApkVersionMetadata;
  fileMetadata: ApkFileMetadata;
}

/** A one-line value for the index (an index line cannot hold a newline). */
function line(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (/[\n\r]/.test(value) || value.length > TEXT_MAX) throw new BadRequestError('a .PKGINFO value is invalid');
  return value;
}

export function describeApk(control: ApkControl): ApkPackage {
  const one = (key: string) => line(control.info.get(key)?.[0]);
  const many = (key: string) => (control.info.get(key) ?? []).map((value) => line(value)!);
  const name = one('pkgname') ?? '';
  const version = one('pkgver') ?? '';
  const architecture = one('arch') ?? '';
  if (!NAME.test(name) || name.length > 255) throw new BadRequestError('package name is invalid');
  if (!VERSION.test(version) || version.length > 255) throw new BadRequestError('package version is invalid');
  if (!ARCHITECTURE.test(architecture)) throw new BadRequestError('package architecture is invalid');
  const number = (key: string) => {
    const value = one(key);
    return value !== undefined && /^\d{1,15}$/.test(value) ? Number(value) : undefined;
  };
  const url = one('url');
  const fileMetadata: ApkFileMetadata = {
    checksum: control.checksum,
    architecture,
    size: number('size') ?? 0,
    origin: one('origin'),
    build_date: number('builddate'),
    commit: one('commit'),
    depends: many('depend'),
    provides: many('provides'),
    install_if: one('install_if'),
    provider_priority: number('provider_priority'),
  };
  return {
    name,
    version,
    architecture,
    versionMetadata: {
      description: one('pkgdesc'),
      license: one('license'),
      project_url: url && /^https?:\/\//.test(url) ? url : undefined,
      maintainer: one('maintainer'),
    },
    fileMetadata,
  };
}
