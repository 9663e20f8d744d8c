// An RPM repository's repodata/ as one set of files: the three package lists gzipped, repomd.xml naming each with
// its checksums and sizes (compressed and open), and repomd.xml.asc, the detached signature dnf checks with
// repo_gpgcheck before it trusts any of them.
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { XML_DECLARATION, xmlAttributes, xmlElement } from '../core/xml-text.ts';
import { type IndexedRpm, listXml, type ListType, XMLNS } from './repodata.ts';

const gzipAsync = promisify(gzip);

export interface RepositoryFile {
  name: string;
  bytes: Buffer;
}

/** Signs the repomd.xml bytes: an ASCII-armored detached OpenPGP signature. */
export type DetachedSigner = (data: Buffer) => Promise<string>;

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

interface ListFile {
  type: ListType;
  xml: string;
  gz: Buffer;
}

function dataTag(list: ListFile, timestamp: number): string {
  return (
    `<data${xmlAttributes({ type: list.type })}>` +
    xmlElement('checksum', sha256(list.gz), { type: 'sha256' }) +
    xmlElement('open-checksum', sha256(list.xml), { type: 'sha256' }) +
    `<location${xmlAttributes({ href: `repodata/${list.type}.xml.gz` })}/>` +
    xmlElement('timestamp', timestamp) +
    xmlElement('size', list.gz.length) +
    xmlElement('open-size', Buffer.byteLength(list.xml)) +
    '</data>'
  );
}

function repomdXml(lists: ListFile[], timestamp: number): string {
  const root = xmlAttributes({ xmlns: XMLNS.repo, 'xmlns:rpm': XMLNS.rpm });
  const data = lists.map((list) => dataTag(list, timestamp)).join('');
  return `${XML_DECLARATION}<repomd${root}>${xmlElement('revision', timestamp)}${data}</repomd>`;
}

/** Every file of repodata/ for these packages, named as dnf asks for them. */
export async function buildRepodata(
  packages: IndexedRpm[],
  sign: DetachedSigner,
  now = new Date(),
): Promise<RepositoryFile[]> {
  const timestamp = Math.floor(now.getTime() / 1000);
  // Each list is gzipped off the loop while the next one is written.
  const pending: Array<Promise<ListFile>> = [];
  for (const type of ['primary', 'filelists', 'other'] as const) {
    const xml = await listXml(type, packages);
    pending.push(gzipAsync(xml).then((gz) => ({ type, xml, gz })));
  }
  const lists = await Promise.all(pending);
  const repomd = Buffer.from(repomdXml(lists, timestamp));
  return [
    ...lists.map((list) => ({ name: `${list.type}.xml.gz`, bytes: list.gz })),
    { name: 'repomd.xml', bytes: repomd },
    { name: 'repomd.xml.asc', bytes: Buffer.from(await sign(repomd)) },
  ];
}
