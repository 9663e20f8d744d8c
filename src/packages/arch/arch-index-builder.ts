// Builds an Arch repository's databases for the index job (src/packages/core/repository-index.ts): the
// repository's packages from one query, their .PKGINFO from the file property the upload kept, each package's
// signature (made here with the owner's key the first time, then kept as a file property), and the databases
// signed with the same key.
import type { ScopeFile } from '../../db/package-scope-files.repository.ts';
import type { IndexBuilder, IndexBuildInput, IndexFile } from '../core/repository-index.ts';
import { type ArchDbPackage, buildArchDatabases } from './arch-db.ts';
import { ARCH, ARCH_METADATA, ARCH_SIGNATURE } from './arch.service.ts';
import type { PkgInfo } from './pkginfo.ts';

async function readAll(stream: AsyncIterable<unknown>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The packages' signatures, base64: kept ones, and new ones made and kept for the packages that have none. */
async function signatures(input: IndexBuildInput, files: ScopeFile[]): Promise<Map<number, string>> {
  const { deps, signingKeys, owner } = input;
  const found = new Map<number, string>();
  for (const file of files) {
    let signature = file.properties[ARCH_SIGNATURE];
    if (!signature) {
      const signer = await signingKeys.pgp(owner);
      const bytes = await readAll(await deps.packageBlobs.get(file.sha256));
      signature = Buffer.from(await signer.detachSign(bytes, 'binary')).toString('base64');
      await deps.repos.packageProperties.add('file', file.fileId, { [ARCH_SIGNATURE]: signature });
    }
    found.set(file.fileId, signature);
  }
  return found;
}

export const ARCH_INDEX_BUILDER: IndexBuilder = {
  async build(input): Promise<IndexFile[]> {
    const { deps, signingKeys, owner, scope } = input;
    const files = (
      await deps.repos.packageScopeFiles.list({ ownerId: owner.id, type: ARCH, scope, property: ARCH_METADATA })
    ).filter((file) => file.property !== '');
    if (files.length === 0) return [];
    const signed = await signatures(input, files);
    const packages: ArchDbPackage[] = files.map((file) => ({
      info: JSON.parse(file.property) as PkgInfo,
      file: {
        fileName: file.fileName,
        size: file.size,
        md5: file.md5,
        sha256: file.sha256,
        pgpSig: signed.get(file.fileId)!,
      },
    }));
    const signer = await signingKeys.pgp(owner);
    const built = await buildArchDatabases(packages, async (data) => {
      const signature = await signer.detachSign(data, 'binary');
      return typeof signature === 'string' ? Buffer.from(signature) : signature;
    });
    return built.map((file) => ({ name: file.name, data: file.bytes }));
  },

  async scopesOf(repos, version) {
    const files = await repos.packages.listFiles(version.id);
    return files.map((file) => file.compositeKey);
  },
};
