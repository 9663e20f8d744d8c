// What a .box must be for Anvil to keep it: a tar archive (gzip-compressed or plain, as Vagrant unpacks either)
// whose entries stay inside it and whose links point inside it, unpacking to a bounded size — a bomb stops early.
// Its info.json, when it has one, gives the version's description and links (Forgejo:
// modules/packages/vagrant/metadata.go); one past 64 KiB is refused.
import type { Readable } from 'node:stream';
import type tar from 'tar-stream';
import { BadRequestError } from '../../domain/errors.ts';
import { TarArchiveCheck } from '../core/tar-check.ts';
import { entryPath } from '../core/tar-entries.ts';

const MAX_INFO_BYTES = 64 * 1024;
/** A disk image may unpack to many times its compressed size, but not past this ratio once past a gigabyte. */
const MAX_RATIO = 100;
const FREE_UNPACKED_BYTES = 1024 * 1024 * 1024;

/** What a version keeps (Forgejo's Vagrant metadata). */
export interface BoxMetadata {
  author?: string;
  description?: string;
  project_url?: string;
  repository_url?: string;
}

const bad = (why: string) => new BadRequestError(`invalid box: ${why}`);

function httpUrl(value: string): string | undefined {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** info.json has no fixed form: the usual keys are read, as Forgejo reads them. */
export function readInfo(json: string): BoxMetadata {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return {};
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
  const metadata: BoxMetadata = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (typeof value !== 'string') continue;
    switch (key.toLowerCase()) {
      case 'description':
      case 'short_description':
        metadata.description = value;
        break;
      case 'website':
      case 'homepage':
      case 'url':
        metadata.project_url = httpUrl(value) ?? metadata.project_url;
        break;
      case 'repository':
      case 'source':
        metadata.repository_url = httpUrl(value) ?? metadata.repository_url;
        break;
      case 'author':
      case 'authors':
        metadata.author = value;
        break;
      default:
        break;
    }
  }
  return metadata;
}

async function readSmall(data: Readable, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of data) {
    size += (chunk as Buffer).length;
    if (size > limit) throw bad(`its info.json is larger than ${limit} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export interface BoxCheck {
  check: TarArchiveCheck;
  /** The metadata its info.json gave, once the check has passed. */
  metadata(): BoxMetadata;
}

export function boxArchiveCheck(): BoxCheck {
  let metadata: BoxMetadata = {};
  const check = new TarArchiveCheck({
    what: 'box',
    gzip: 'optional',
    maxUnpackedBytes: (compressed) => Math.max(FREE_UNPACKED_BYTES, compressed * MAX_RATIO),
    async entry(header: tar.Headers, path: string, data: Readable) {
      if (header.type === 'symlink' || header.type === 'link') {
        const target = header.linkname ?? '';
        const from = header.type === 'symlink' ? path.split('/').slice(0, -1).join('/') : '';
        entryPath(from === '' ? target : `${from}/${target}`, (why) => bad(`a link: ${why}`));
        return;
      }
      if (header.type !== 'file' && header.type !== 'directory')
        throw bad(`the entry "${header.name}" is a ${header.type}`);
      if (path === 'info.json' && header.type === 'file') metadata = readInfo(await readSmall(data, MAX_INFO_BYTES));
    },
    end() {},
  });
  return { check, metadata: () => metadata };
}
