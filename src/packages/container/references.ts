// The names of the OCI distribution spec: image names (Forgejo's pattern: lower-case path components, nested images
// allowed), tags and digests. Digests are sha256 or sha512, the algorithms the blob store hashes with.
const IMAGE_NAME = /^[a-z0-9]+(?:[._-][a-z0-9]+)*(?:\/[a-z0-9]+(?:[._-][a-z0-9]+)*)*$/;
const TAG = /^[a-zA-Z0-9_][a-zA-Z0-9._-]{0,127}$/;
const DIGEST = /^(sha256:[a-f0-9]{64}|sha512:[a-f0-9]{128})$/;

export type DigestAlgorithm = 'sha256' | 'sha512';

export interface Digest {
  algorithm: DigestAlgorithm;
  hex: string;
}

export function isImageName(name: string): boolean {
  return name.length <= 255 && IMAGE_NAME.test(name);
}

export function isTag(reference: string): boolean {
  return TAG.test(reference);
}

/** The digest a string spells, or null. */
export function parseDigest(text: string): Digest | null {
  if (!DIGEST.test(text)) return null;
  const [algorithm, hex] = text.split(':') as [DigestAlgorithm, string];
  return { algorithm, hex };
}

/** `{owner}/{image…}`: the owner is the first component. */
export function splitRepositoryName(name: string): { owner: string; image: string } | null {
  const slash = name.indexOf('/');
  if (slash <= 0) return null;
  return { owner: name.slice(0, slash), image: name.slice(slash + 1) };
}
