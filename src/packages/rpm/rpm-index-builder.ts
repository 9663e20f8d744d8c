// Builds an RPM group's repodata/ for the index job (src/packages/core/repository-index.ts): the group's packages
// from one query, their parsed headers from the file property the upload kept, the lists and repomd.xml signed with
// the owner's OpenPGP key. A group without packages has no repodata (dnf then reports the repository missing).
import { mapInSlices } from '../core/in-slices.ts';
import type { IndexBuilder, IndexFile } from '../core/repository-index.ts';
import type { ScopeFile } from '../../db/package-scope-files.repository.ts';
import { buildRepodata } from './repomd.ts';
import type { IndexedRpm } from './repodata.ts';
import type { RpmPackage } from './rpm-package.ts';
import { RPM, RPM_METADATA } from './rpm.service.ts';

/** Where dnf downloads the file, below the group's base URL (Forgejo's layout; the last segment is for humans). */
export function packageHref(file: Pick<ScopeFile, 'packageName' | 'version' | 'fileName'>, arch: string): string {
  const parts = [file.packageName, file.version, arch, file.fileName].map(encodeURIComponent);
  return `package/${parts.join('/')}`;
}

function indexed(file: ScopeFile): IndexedRpm | null {
  if (!file.property) return null;
  const pkg = JSON.parse(file.property) as RpmPackage;
  return {
    pkg,
    sha256: file.sha256,
    size: file.size,
    href: packageHref(file, pkg.arch),
    fileTime: Math.floor(file.fileCreatedAt.getTime() / 1000),
  };
}

export const RPM_INDEX_BUILDER: IndexBuilder = {
  async build({ deps, signingKeys, owner, scope }): Promise<IndexFile[]> {
    const files = await deps.repos.packageScopeFiles.list({
      ownerId: owner.id,
      type: RPM,
      scope,
      property: RPM_METADATA,
    });
    const packages = (await mapInSlices(files, indexed)).filter((item) => item !== null);
    if (packages.length === 0) return [];
    const signer = await signingKeys.pgp(owner);
    const sign = async (data: Buffer) => String(await signer.detachSign(data, 'armored'));
    const built = await buildRepodata(packages, sign);
    return built.map((file) => ({ name: file.name, data: file.bytes }));
  },

  async scopesOf(repos, version) {
    const files = await repos.packages.listFiles(version.id);
    return files.map((file) => file.compositeKey);
  },
};
