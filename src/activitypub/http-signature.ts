// Incoming HTTP Signatures (draft-cavage-http-signatures, rsa-sha256) and the Digest header they cover
// (Forgejo: routers/api/v1/activitypub/reqsignature.go). Parsing and the RSA check are the http-signature package's.
import { createHash } from 'node:crypto';
import type { ClientRequest, IncomingHttpHeaders } from 'node:http';
import type * as HttpSignature from 'http-signature';
import type { ParseResponse } from 'http-signature';

/** Loaded on the first signed request: it brings sshpk and its crypto, which most instances never need. */
function httpSignature(): typeof HttpSignature {
  return require('http-signature') as typeof HttpSignature;
}

/** What a signature must cover: the method and path, the host, the time and the body. */
const REQUIRED_HEADERS = ['(request-target)', 'host', 'date', 'digest'];
const CLOCK_SKEW_SECONDS = 300;

export interface SignedRequest {
  readonly method: string;
  /** Path and query as the client sent them. */
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

export interface ParsedSignature {
  readonly keyId: string;
  readonly parsed: ParseResponse;
}

/** The request is not signed in a way that can be checked (400). */
export class UnverifiableSignatureError extends Error {}

export function parseSignature(request: SignedRequest): ParsedSignature {
  if (!request.headers.signature && !request.headers.authorization)
    throw new UnverifiableSignatureError('the request is not signed');
  let parsed: ParseResponse;
  try {
    // http-signature reads method, url and headers of a node request; nothing else.
    const target = {
      method: request.method,
      url: request.url,
      headers: request.headers,
      httpVersion: '1.1',
    } as unknown as ClientRequest;
    parsed = httpSignature().parseRequest(target, {
      headers: REQUIRED_HEADERS,
      algorithms: ['rsa-sha256'],
      clockSkew: CLOCK_SKEW_SECONDS,
      strict: true,
    });
  } catch (error) {
    throw new UnverifiableSignatureError(`invalid signature: ${(error as Error).message}`);
  }
  checkDigest(request);
  return { keyId: parsed.params.keyId, parsed };
}

/** `Digest: SHA-256=<base64>` must name the body that came (RFC 3230). */
function checkDigest(request: SignedRequest): void {
  const header = String(request.headers.digest ?? '');
  const expected = createHash('sha256').update(request.body).digest('base64');
  const sha256 = header
    .split(',')
    .map((part) => part.trim())
    .find((part) => /^sha-256=/i.test(part));
  if (!sha256) throw new UnverifiableSignatureError('the Digest header has no SHA-256 value');
  if (sha256.slice('sha-256='.length) !== expected)
    throw new UnverifiableSignatureError('the Digest header does not match the body');
}

/** Whether the signature was made with the private half of this public key. */
export function signatureMatches(signature: ParsedSignature, publicKeyPem: string): boolean {
  try {
    return httpSignature().verifySignature(signature.parsed, publicKeyPem);
  } catch (error) {
    throw new UnverifiableSignatureError(`the actor's public key cannot be used: ${(error as Error).message}`);
  }
}
