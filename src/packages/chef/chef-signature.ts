// The signed requests of Chef's clients (knife, Berkshelf), as mixlib-authentication makes them and Forgejo checks
// them (routers/api/packages/chef/auth.go; docs.chef.io "Chef Infra Server API", Authentication headers): the
// request's method, path, body hash, timestamp and user id joined into one canonical text, signed with the user's
// RSA private key and sent base64-encoded over X-Ops-Authorization-1…N. Protocol 1.0 and 1.1 sign the text itself
// (a raw PKCS#1 v1.5 private encryption), 1.2 signs its SHA-1 and 1.3 its SHA-256; 1.1 and 1.2 hash the user id.
import { constants, createHash, type KeyObject, publicDecrypt, verify } from 'node:crypto';
import { UnauthorizedError } from '../../domain/errors.ts';

export type SignVersion = '1.0' | '1.1' | '1.2' | '1.3';

export interface SignedRequest {
  method: string;
  /** The request's path, without its query. */
  path: string;
  /** The request's headers, names in lower case (as Node gives them). */
  headers: Readonly<Record<string, string | string[] | undefined>>;
}

/** How far a request's timestamp may be from the server's clock (Forgejo's bound). */
export const MAX_CLOCK_SKEW_MS = 10 * 60 * 1000;

const refused = (why: string) => new UnauthorizedError(`the signed request is refused: ${why}`);

function header(request: SignedRequest, name: string): string {
  const value = request.headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

/** The protocol version of X-Ops-Sign (`algorithm=sha1;version=1.0;`), checked against its algorithm. */
export function signVersion(request: SignedRequest): SignVersion {
  const sign = header(request, 'x-ops-sign');
  if (sign === '') throw refused('X-Ops-Sign is missing');
  const version = /(?:^|;)\s*version=(\d+\.\d+)/.exec(sign)?.[1];
  if (version !== '1.0' && version !== '1.1' && version !== '1.2' && version !== '1.3') {
    throw refused(`signing protocol version ${version ?? '(none)'} is not supported`);
  }
  const algorithm = /(?:^|;)\s*algorithm=(\w+)/.exec(sign)?.[1];
  if (algorithm !== undefined && algorithm !== 'sha1' && !(algorithm === 'sha256' && version === '1.3')) {
    throw refused(`algorithm ${algorithm} is not supported with version ${version}`);
  }
  return version;
}

/** X-Ops-Timestamp, an ISO 8601 UTC time within MAX_CLOCK_SKEW_MS of now. */
export function checkTimestamp(request: SignedRequest, now: Date): void {
  const stamp = header(request, 'x-ops-timestamp');
  if (stamp === '') throw refused('X-Ops-Timestamp is missing');
  const at = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/.test(stamp)
    ? Date.parse(stamp)
    : NaN;
  if (Number.isNaN(at)) throw refused('X-Ops-Timestamp is not an ISO 8601 time');
  if (Math.abs(now.getTime() - at) > MAX_CLOCK_SKEW_MS) throw refused('X-Ops-Timestamp is too far from now');
}

/** The signature: X-Ops-Authorization-1…N joined in order, every part present, base64-decoded. */
export function signatureOf(request: SignedRequest): Buffer {
  const parts = new Map<number, string>();
  for (const [name, value] of Object.entries(request.headers)) {
    const index = /^x-ops-authorization-(\d+)$/.exec(name)?.[1];
    if (index !== undefined) parts.set(Number(index), (Array.isArray(value) ? value[0] : value) ?? '');
  }
  if (parts.size === 0) throw refused('X-Ops-Authorization-1 is missing');
  const joined: string[] = [];
  for (let index = 1; index <= parts.size; index++) {
    const part = parts.get(index);
    if (part === undefined) throw refused(`X-Ops-Authorization-${index} is missing`);
    joined.push(part.trim());
  }
  return Buffer.from(joined.join(''), 'base64');
}

const base64Sha1 = (text: string) => createHash('sha1').update(text).digest('base64');

/** mixlib's canonical path: runs of slashes as one, no trailing slash but the root's. */
export function canonicalPath(path: string): string {
  const collapsed = path.replace(/\/+/g, '/');
  return collapsed.length > 1 ? collapsed.replace(/\/$/, '') : collapsed;
}

/** The text the client signed. */
export function canonicalRequest(request: SignedRequest, version: SignVersion): string {
  const userId = header(request, 'x-ops-userid');
  const path = canonicalPath(request.path);
  const contentHash = header(request, 'x-ops-content-hash');
  const timestamp = header(request, 'x-ops-timestamp');
  if (version === '1.3') {
    return [
      `Method:${request.method.toUpperCase()}`,
      `Path:${path}`,
      `X-Ops-Content-Hash:${contentHash}`,
      `X-Ops-Sign:version=${version}`,
      `X-Ops-Timestamp:${timestamp}`,
      `X-Ops-UserId:${userId}`,
      `X-Ops-Server-API-Version:${header(request, 'x-ops-server-api-version')}`,
    ].join('\n');
  }
  return [
    `Method:${request.method.toUpperCase()}`,
    `Hashed Path:${base64Sha1(path)}`,
    `X-Ops-Content-Hash:${contentHash}`,
    `X-Ops-Timestamp:${timestamp}`,
    `X-Ops-UserId:${version === '1.0' ? userId : base64Sha1(userId)}`,
  ].join('\n');
}

function signs(signature: Buffer, text: string, version: SignVersion, key: KeyObject): boolean {
  const data = Buffer.from(text, 'utf8');
  try {
    if (version === '1.2') return verify('sha1', data, key, signature);
    if (version === '1.3') return verify('sha256', data, key, signature);
    // 1.0 and 1.1: the signature is the text itself, encrypted with the private key.
    return publicDecrypt({ key, padding: constants.RSA_PKCS1_PADDING }, signature).equals(data);
  } catch {
    return false;
  }
}

/** Checks the request's headers and signature against the user's public key; a 401 says what is wrong. */
export function verifySignedRequest(request: SignedRequest, key: KeyObject, now: Date): void {
  const version = signVersion(request);
  checkTimestamp(request, now);
  if (!signs(signatureOf(request), canonicalRequest(request, version), version, key)) {
    throw refused('the signature does not match the key');
  }
}
