// Builds an ALT group's repository for the index job (src/packages/core/repository-index.ts): for each architecture
// of the group's packages, {arch}/base/ with the pkglist (plain and xz), release.classic, release naming them with
// their digests, and release.gpg, a detached signature of release with the owner's OpenPGP key (Forgejo leaves
// release unsigned; the signature lets a client check the index chain against repository.key). The packages come
// from one query, each with the header and BLAKE2b digest its upload kept. A group without packages has no files.
import { xzCompress } from '../core/xz.ts';
import type { ScopeFile } from '../../db/package-scope-files.repository.ts';
import type { IndexBuilder, IndexFile } from '../core/repository-index.ts';
import { release, releaseClassic, type BaseFile } from './alt-release.ts';
import { ALT, ALT_METADATA, type AltFileMetadata } from './alt.service.ts';
import { pkglist, type PkglistPackage } from './pkglist.ts';

interface ArchPackage extends PkglistPackage {
  arch: string;
}

function listed(file: ScopeFile): ArchPackage | null {
  if (!file.property) return null;
  const meta = JSON.parse(file.property) as AltFileMetadata;
  return {
    arch: meta.arch,
    header: Buffer.from(meta.header, 'base64'),
    fileName: file.fileName,
    size: file.size,
    md5: file.md5,
    blake2b: meta.blake2b,
  };
}

function byArch(packages: readonly ArchPackage[]): Map<string, ArchPackage[]> {
  const groups = new Map<string, ArchPackage[]>();
  for (const pkg of packages) groups.set(pkg.arch, [...(groups.get(pkg.arch) ?? []), pkg]);
  return groups;
}

export const ALT_INDEX_BUILDER: IndexBuilder = {
  async build({ deps, signingKeys, owner, scope }): Promise<IndexFile[]> {
    const files = await deps.repos.packageScopeFiles.list({
      ownerId: owner.id,
      type: ALT,
      scope,
      property: ALT_METADATA,
    });
    const packages = files.map(listed).filter((item) => item !== null);
    if (packages.length === 0) return [];
    const signer = await signingKeys.pgp(owner);
    const appName = deps.settings[''].APP_NAME;
    const now = new Date();
    const out: IndexFile[] = [];
    for (const [arch, list] of byArch(packages)) {
      const plain = await pkglist(list);
      const base: BaseFile[] = [
        { name: 'pkglist.classic', data: plain },
        { name: 'pkglist.classic.xz', data: await xzCompress(plain) },
        { name: 'release.classic', data: releaseClassic({ appName, arch, now }) },
      ];
      const releaseData = release({ appName, arch, now }, base);
      const signature = Buffer.from(String(await signer.detachSign(releaseData, 'armored')));
      base.push({ name: 'release', data: releaseData }, { name: 'release.gpg', data: signature });
      out.push(...base.map((file) => ({ name: `${arch}/base/${file.name}`, data: file.data })));
    }
    return out;
  },

  async scopesOf(repos, version) {
    const files = await repos.packages.listFiles(version.id);
    return files.map((file) => file.compositeKey);
  },
};
