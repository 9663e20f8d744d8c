// An RPM repository's repodata/ as one set of files: the three package lists gzipped, repomd.xml naming each with
// its checksums and sizes (compressed and open), and repomd.xml.asc, the detached signature dnf checks with
// repo_gpgcheck before it trusts any of them.
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { filelistsXml, type IndexedRpm, otherXml, primaryXml, XMLNS, xmlDocument } from './repodata.ts';

const gzipAsync = promisify(gzip);

export interface RepositoryFile {
  name: string;
  bytes: Buffer;
}

/** Signs the repomd.xml bytes: an ASCII-armored detached OpenPGP signature. */
export type DetachedSigner = (data: Buffer) => Promise<string>;

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

interface ListFile {
  type: 'primary' | 'filelists' | 'other';
  xml: string;
  gz: Buffer;
}

function dataNode(list: ListFile, timestamp: number) {
  return {
    '@_type': list.type,
    checksum: { '@_type': 'sha256', '#text': sha256(list.gz) },
    'open-checksum': { '@_type': 'sha256', '#text': sha256(list.xml) },
    location: { '@_href': `repodata/${list.type}.xml.gz` },
    timestamp,
    size: list.gz.length,
    'open-size': Buffer.byteLength(list.xml),
  };
}

/** Every file of repodata/ for these packages, named as dnf asks for them. */
export async function buildRepodata(
  packages: IndexedRpm[],
  sign: DetachedSigner,
  now = new Date(),
): Promise<RepositoryFile[]> {
  const timestamp = Math.floor(now.getTime() / 1000);
  const documents = [
    ['primary', primaryXml(packages)],
    ['filelists', filelistsXml(packages)],
    ['other', otherXml(packages)],
  ] as const;
  const lists: ListFile[] = await Promise.all(
    documents.map(async ([type, xml]) => ({ type, xml, gz: await gzipAsync(xml) })),
  );
  const repomd = Buffer.from(
    xmlDocument({
      repomd: {
        '@_xmlns': XMLNS.repo,
        '@_xmlns:rpm': XMLNS.rpm,
        revision: timestamp,
        data: lists.map((list) => dataNode(list, timestamp)),
      },
    }),
  );
  return [
    ...lists.map((list) => ({ name: `${list.type}.xml.gz`, bytes: list.gz })),
    { name: 'repomd.xml', bytes: repomd },
    { name: 'repomd.xml.asc', bytes: Buffer.from(await sign(repomd)) },
  ];
}
