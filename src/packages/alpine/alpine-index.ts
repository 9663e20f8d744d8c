// The index of an Alpine branch and repository (https://wiki.alpinelinux.org/wiki/Apk_spec#APKINDEX_Format),
// rebuilt as one set by the "package-index" job: {arch}/APKINDEX.tar.gz for every architecture ("noarch" packages
// are listed under every architecture too). As apk checks it: a gzip stream of a tar holding DESCRIPTION and
// APKINDEX, preceded by a gzip stream of a tar holding .SIGN.RSA.<key name>, the owner's RSA-SHA1 signature of the
// index stream's compressed bytes.
import { createHash, createPublicKey } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import tar from 'tar-stream';
import type { User } from '../../db/entities.ts';
import type { ScopedFile } from '../../db/scoped-file.repository.ts';
import type { IndexBuilder, IndexFile } from '../core/repository-index.ts';
import type { ApkFileMetadata, ApkVersionMetadata } from './pkginfo.ts';

export const ALPINE = 'alpine';
export const APKINDEX = 'APKINDEX.tar.gz';
/** A tar's end: two zero blocks, which a signature segment goes without. */
const TAR_END = 1024;

export const ALPINE_PROPERTY = {
  /** `{branch}/{repository}`: the index scope. */
  scope: 'alpine.scope',
  architecture: 'alpine.architecture',
  metadata: 'alpine.metadata',
} as const;

export const alpineScope = (branch: string, repository: string) => `${branch}/${repository}`;

/** The name apk knows the key by, in /etc/apk/keys and in the index's signature entry. */
export function alpineKeyName(owner: User, publicKeyPem: string): string {
  const der = createPublicKey(publicKeyPem).export({ type: 'spki', format: 'der' });
  return `${owner.lowerName}@${createHash('sha1').update(der).digest('hex')}.rsa.pub`;
}

async function tarOf(files: Array<[string, Buffer]>, withEnd: boolean): Promise<Buffer> {
  const pack = tar.pack();
  for (const [name, data] of files) pack.entry({ name, mode: 0o644, mtime: new Date(0) }, data);
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack) chunks.push(chunk as Buffer);
  const all = Buffer.concat(chunks);
  return withEnd ? all : all.subarray(0, all.length - TAR_END);
}

function entry(file: ScopedFile, versionMetadata: ApkVersionMetadata): string {
  const meta = JSON.parse(file.properties[ALPINE_PROPERTY.metadata]) as ApkFileMetadata;
  const lines = [`C:${meta.checksum}`, `P:${file.packageName}`, `V:${file.version}`, `A:${meta.architecture}`];
  if (versionMetadata.description) lines.push(`T:${versionMetadata.description}`);
  if (versionMetadata.project_url) lines.push(`U:${versionMetadata.project_url}`);
  if (versionMetadata.license) lines.push(`L:${versionMetadata.license}`);
  lines.push(`S:${file.size}`, `I:${meta.size}`);
  if (meta.origin) lines.push(`o:${meta.origin}`);
  if (versionMetadata.maintainer) lines.push(`m:${versionMetadata.maintainer}`);
  if (meta.build_date !== undefined) lines.push(`t:${meta.build_date}`);
  if (meta.commit) lines.push(`c:${meta.commit}`);
  if (meta.depends?.length) lines.push(`D:${meta.depends.join(' ')}`);
  if (meta.provides?.length) lines.push(`p:${meta.provides.join(' ')}`);
  if (meta.install_if) lines.push(`i:${meta.install_if}`);
  if (meta.provider_priority) lines.push(`k:${meta.provider_priority}`);
  return `${lines.join('\n')}\n\n`;
}

export const alpineIndexBuilder: IndexBuilder = {
  async build({ deps, signingKeys, owner, scope }) {
    const files = await deps.repos.scopedFiles.filesWhere(owner.id, ALPINE, ALPINE_PROPERTY.scope, scope);
    if (files.length === 0) return [];
    const versions = await deps.repos.packages.versionMetadata([...new Set(files.map((file) => file.versionId))]);
    const signer = await signingKeys.rsa(owner);
    const keyName = alpineKeyName(owner, signer.publicKeyPem);
    const architectures = [...new Set(files.map((file) => file.properties[ALPINE_PROPERTY.architecture]))].sort();
    const out: IndexFile[] = [];
    for (const architecture of architectures) {
      const listed = files.filter((file) => {
        const own = file.properties[ALPINE_PROPERTY.architecture];
        return own === architecture || own === 'noarch';
      });
      const text = listed
        .map((file) => entry(file, JSON.parse(versions.get(file.versionId) ?? '{}') as ApkVersionMetadata))
        .join('');
      const description = Buffer.from(`${owner.name} ${scope}`);
      const index = gzipSync(
        await tarOf(
          [
            ['DESCRIPTION', description],
            ['APKINDEX', Buffer.from(text, 'utf8')],
          ],
          true,
        ),
      );
      const signature = gzipSync(await tarOf([[`.SIGN.RSA.${keyName}`, signer.sign(index, 'sha1')]], false));
      out.push({ name: `${architecture}/${APKINDEX}`, data: Buffer.concat([signature, index]) });
    }
    return out;
  },
  scopesOf: (repos, version) => repos.scopedFiles.valuesForVersion(version.id, ALPINE_PROPERTY.scope),
};
