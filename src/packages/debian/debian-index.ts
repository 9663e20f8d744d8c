// The index of a Debian distribution (https://wiki.debian.org/DebianRepository/Format), rebuilt as one set by the
// "package-index" job: {component}/binary-{arch}/Packages and Packages.gz for every component and architecture of
// the distribution ("all" packages are listed under every architecture too), also as Packages.gz and Packages.xz
// (compressed off the event loop), and the Release that names them all by their digests — clear-signed as InRelease
// and signed detached as Release.gpg with the owner's OpenPGP key.
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { xzCompress } from '../core/xz.ts';
import type { ScopedFile } from '../../db/scoped-file.repository.ts';
import type { IndexBuilder, IndexFile } from '../core/repository-index.ts';

export const DEBIAN = 'debian';

/** The file properties of a stored .deb (Forgejo: modules/packages/debian). */
export const DEBIAN_PROPERTY = {
  distribution: 'debian.distribution',
  component: 'debian.component',
  architecture: 'debian.architecture',
  control: 'debian.control',
} as const;

const HASHES = [
  ['MD5Sum', 'md5'],
  ['SHA1', 'sha1'],
  ['SHA256', 'sha256'],
  ['SHA512', 'sha512'],
] as const;

export function poolFileName(name: string, version: string, architecture: string): string {
  return `${name}_${version}_${architecture}.deb`;
}

function stanza(file: ScopedFile, distribution: string): string {
  const component = file.properties[DEBIAN_PROPERTY.component];
  return [
    file.properties[DEBIAN_PROPERTY.control].trim(),
    `Filename: pool/${distribution}/${component}/${file.fileName}`,
    `Size: ${file.size}`,
    `MD5sum: ${file.md5}`,
    `SHA1: ${file.sha1}`,
    `SHA256: ${file.sha256}`,
    `SHA512: ${file.sha512}`,
  ].join('\n');
}

const sorted = (values: Iterable<string>) => [...new Set(values)].sort();
const gzipAsync = promisify(gzip);

/** The Packages files of each component and architecture, plain, gzipped and xz-compressed. */
async function packagesFiles(files: ScopedFile[], distribution: string): Promise<IndexFile[]> {
  const architectures = sorted(files.map((file) => file.properties[DEBIAN_PROPERTY.architecture]));
  const out: Array<Promise<IndexFile>> = [];
  for (const component of sorted(files.map((file) => file.properties[DEBIAN_PROPERTY.component]))) {
    const inComponent = files.filter((file) => file.properties[DEBIAN_PROPERTY.component] === component);
    for (const architecture of architectures) {
      const listed = inComponent.filter((file) => {
        const own = file.properties[DEBIAN_PROPERTY.architecture];
        return own === architecture || (own === 'all' && architecture !== 'all');
      });
      const text = listed.map((file) => `${stanza(file, distribution)}\n`).join('\n');
      const data = Buffer.from(text, 'utf8');
      const dir = `${component}/binary-${architecture}`;
      out.push(
        Promise.resolve({ name: `${dir}/Packages`, data }),
        gzipAsync(data, { level: 9 }).then((gz) => ({ name: `${dir}/Packages.gz`, data: gz })),
        xzCompress(data).then((compressed) => ({ name: `${dir}/Packages.xz`, data: compressed })),
      );
    }
  }
  return Promise.all(out);
}

function releaseText(files: ScopedFile[], distribution: string, indexes: IndexFile[], origin: string): string {
  const lines = [
    `Origin: ${origin}`,
    `Label: ${origin}`,
    `Suite: ${distribution}`,
    `Codename: ${distribution}`,
    `Date: ${new Date().toUTCString().replace('GMT', 'UTC')}`,
    `Architectures: ${sorted(files.map((file) => file.properties[DEBIAN_PROPERTY.architecture])).join(' ')}`,
    `Components: ${sorted(files.map((file) => file.properties[DEBIAN_PROPERTY.component])).join(' ')}`,
    'Acquire-By-Hash: yes',
  ];
  for (const [field, algorithm] of HASHES) {
    lines.push(`${field}:`);
    for (const index of indexes) {
      const digest = createHash(algorithm).update(index.data).digest('hex');
      lines.push(` ${digest} ${index.data.length} ${index.name}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

export const debianIndexBuilder: IndexBuilder = {
  async build({ deps, signingKeys, owner, scope }) {
    const files = await deps.repos.scopedFiles.filesWhere(owner.id, DEBIAN, DEBIAN_PROPERTY.distribution, scope);
    if (files.length === 0) return [];
    const indexes = await packagesFiles(files, scope);
    const release = releaseText(files, scope, indexes, deps.settings[''].APP_NAME.replace(/\s+/g, ' '));
    const signer = await signingKeys.pgp(owner);
    const [inRelease, detached] = await Promise.all([
      signer.clearSign(release),
      signer.detachSign(release, 'armored') as Promise<string>,
    ]);
    return [
      ...indexes,
      { name: 'Release', data: Buffer.from(release, 'utf8') },
      { name: 'InRelease', data: Buffer.from(inRelease, 'utf8') },
      { name: 'Release.gpg', data: Buffer.from(detached, 'utf8') },
    ];
  },
  scopesOf: (repos, version) => repos.scopedFiles.valuesForVersion(version.id, DEBIAN_PROPERTY.distribution),
};
