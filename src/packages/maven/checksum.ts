// Checksum files, as Maven fetches and deploys them beside every file: served from the digests stored with the
// bytes, or computed over a generated document.
import { createHash } from 'node:crypto';
import type { ChecksumKind } from './maven-path.ts';

export interface StoredHashes {
  hashMd5: string;
  hashSha1: string;
  hashSha256: string;
  hashSha512: string;
}

export function storedChecksum(blob: StoredHashes, kind: ChecksumKind): string {
  const byKind = { md5: blob.hashMd5, sha1: blob.hashSha1, sha256: blob.hashSha256, sha512: blob.hashSha512 };
  return byKind[kind];
}

export function documentChecksum(document: string | Buffer, kind: ChecksumKind): string {
  return createHash(kind).update(document).digest('hex');
}

/**
 * Whether a deployed checksum file agrees with the stored bytes. Maven writes the bare hex digest; other tools
 * write `digest  file-name` (as md5sum does), so the first word is compared.
 */
export function checksumMatches(sent: string, expected: string): boolean {
  const word = sent.trim().split(/\s+/, 1)[0] ?? '';
  return word.toLowerCase() === expected.toLowerCase();
}
