// Builds an Arch repository's databases for the index job (src/packages/core/repository-index.ts): the
// repository's packages from one query, their .PKGINFO from the file property the upload kept, each package's
// signature and installed paths (made here from the stored package the first time — signed with the owner's key,
// its tar listed — then kept as file properties), and the databases signed with the same key.
import type { ScopeFile } from '../../db/package-scope-files.repository.ts';
import type { IndexBuilder, IndexBuildInput, IndexFile } from '../core/repository-index.ts';
import { type ArchDbPackage, buildArchDatabases } from './arch-db.ts';
import { ARCH, ARCH_FILES, ARCH_METADATA, ARCH_SIGNATURE } from './arch.service.ts';
import { packageFiles } from './package-files.ts';
import type { PkgInfo } from './pkginfo.ts';

async function readAll(stream: AsyncIterable<unknown>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The package's paths, one a line; none when its tar cannot be read to the end (the upload read its front). */
async function listedPaths(input: IndexBuildInput, bytes: Buffer): Promise<string> {
  try {
    return (await packageFiles(bytes)).join('\n');
  } catch (error) {
    input.deps.log.warn({ err: error }, 'an Arch package could not be listed for its .files database');
    return '';
  }
}

interface KeptFacts {
  /** The detached signature, base64. */
  signature: string;
  files: string[];
}

/** Each package's signature and paths: the kept ones, and for a package without them, made and kept now. */
async function keptFacts(input: IndexBuildInput, files: ScopeFile[]): Promise<Map<number, KeptFacts>> {
  const { deps, signingKeys, owner } = input;
  const found = new Map<number, KeptFacts>();
  for (const file of files) {
    let signature = file.properties[ARCH_SIGNATURE];
    let paths = file.properties[ARCH_FILES];
    if (!signature || paths === undefined) {
      const bytes = await readAll(await deps.packageBlobs.get(file.sha256));
      const made: Record<string, string> = {};
      if (!signature) {
        const signer = await signingKeys.pgp(owner);
        signature = made[ARCH_SIGNATURE] = Buffer.from(await signer.detachSign(bytes, 'binary')).toString('base64');
      }
      if (paths === undefined) paths = made[ARCH_FILES] = await listedPaths(input, bytes);
      await deps.repos.packageProperties.add('file', file.fileId, made);
    }
    found.set(file.fileId, { signature, files: paths === '' ? [] : paths.split('\n') });
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
    const kept = await keptFacts(input, files);
    const packages: ArchDbPackage[] = files.map((file) => ({
      info: JSON.parse(file.property) as PkgInfo,
      file: {
        fileName: file.fileName,
        size: file.size,
        md5: file.md5,
        sha256: file.sha256,
        pgpSig: kept.get(file.fileId)!.signature,
      },
      files: kept.get(file.fileId)!.files,
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
