// Packages and package files as the API shows them (Forgejo: services/convert/package.go).
import type { components } from '../../generated/api.d.ts';
import type { PackageFileRow, PackageView } from '../db/package.repository.ts';
import { toRepository } from './repository.ts';
import { isoTime } from './time.ts';
import { toUser, type UserView } from './user.ts';

type ApiPackage = components['schemas']['Package'];
type ApiPackageFile = components['schemas']['PackageFile'];

/** `id` is the version's: the API lists one entry per version. */
export function toPackage({ version, owner, creator, repository }: PackageView, view: UserView): ApiPackage {
  const pkg = version.package;
  return {
    id: version.id,
    owner: toUser(owner, view),
    ...(repository ? { repository: toRepository(repository, view) } : {}),
    creator: toUser(creator, view),
    type: pkg.type,
    name: pkg.name,
    version: version.version,
    created_at: isoTime(version.createdAt),
    html_url: `${view.rootUrl}${owner.name}/-/packages/${pkg.type}/${encodeURIComponent(pkg.lowerName)}/${encodeURIComponent(version.lowerVersion)}`,
  };
}

export function toPackageFile(file: PackageFileRow): ApiPackageFile {
  const { blob } = file;
  return {
    id: file.id,
    Size: Number(blob.size),
    name: file.name,
    md5: blob.hashMd5,
    sha1: blob.hashSha1,
    sha256: blob.hashSha256,
    sha512: blob.hashSha512,
  };
}
