// Checksum files, as Maven fetches and deploys them beside every file: served from the digests stored with the
// bytes, or computed over a generated document.
import { createHash } from 'node:crypto';
import type { BlobDigests } from '../../infra/storage/blob-store.ts';
import type { ChecksumKind } from './maven-path.ts';

export function storedChecksum(digests: Omit<BlobDigests, 'size'>, kind: ChecksumKind): string {
  return digests[kind];
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
