// Reads an Alpine package (apk v2, https://wiki.alpinelinux.org/wiki/Apk_spec): gzip streams of an optional
// signature tar, the control tar holding .PKGINFO, and the data tar. Only the start is needed, so the caller hands
// the head of the upload. The index names a package by the SHA-1 of its control stream ("Q1" + base64).
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import tar from 'tar-stream';
import { BadRequestError } from '../../domain/errors.ts';
import { gzipMemberAt } from '../core/gzip-members.ts';

/** The most of an .apk read for its control stream. */
export const APK_HEAD_BYTES = 4 * 1024 * 1024;
const MAX_SEGMENT = 8 * 1024 * 1024;
const MAX_PKGINFO = 1024 * 1024;

export interface ApkControl {
  /** "Q1" and the base64 SHA-1 of the control stream, as APKINDEX's C: field has it. */
  checksum: string;
  /** .PKGINFO's keys, each with its values in order (depend and provides repeat). */
  info: Map<string, string[]>;
}

/** The regular files of a tar segment (abuild's segments end without the end-of-archive blocks). */
async function tarFiles(data: Buffer): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  const extract = tar.extract();
  Readable.from([data]).pipe(extract);
  try {
    for await (const entry of extract) {
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(chunk as Buffer);
      if (entry.header.type === 'file') files.set(entry.header.name, Buffer.concat(chunks));
    }
  } catch {
    throw new BadRequestError('the package holds a malformed tar segment');
  }
  return files;
}

function parsePkginfo(text: string): Map<string, string[]> {
  const info = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    if (line.trim() === '' || line.startsWith('#')) continue;
    const at = line.indexOf(' = ');
    if (at <= 0) continue;
    const key = line.slice(0, at).trim();
    info.set(key, [...(info.get(key) ?? []), line.slice(at + 3).trim()]);
  }
  return info;
}

export async function readApkControl(head: Buffer): Promise<ApkControl> {
  let member = gzipMemberAt(head, 0, MAX_SEGMENT);
  let files = await tarFiles(member.content);
  if ([...files.keys()].some((name) => name.startsWith('.SIGN.'))) {
    member = gzipMemberAt(head, member.raw.length, MAX_SEGMENT);
    files = await tarFiles(member.content);
  }
  const pkginfo = files.get('.PKGINFO');
  if (!pkginfo) throw new BadRequestError('.PKGINFO file is missing');
  if (pkginfo.length > MAX_PKGINFO) throw new BadRequestError('the .PKGINFO file is too large');
  const checksum = `Q1${createHash('sha1').update(member.raw).digest('base64')}`;
  return { checksum, info: parsePkginfo(pkginfo.toString('utf8')) };
}
