// OpenSSH public keys ("<type> <base64 wire blob> [comment]"): parsing, validation and the SHA256 fingerprint,
// read from the wire format (RFC 4253 §6.6, RFC 5656 §3.1, RFC 8709 §4) and checked with node:crypto.
import { createHash, createPublicKey, type JsonWebKey } from 'node:crypto';

export type SshKeyAlgorithm = 'rsa' | 'ecdsa' | 'ed25519';

export interface ParsedSshKey {
  /** The wire name, e.g. ssh-ed25519. */
  type: string;
  algorithm: SshKeyAlgorithm;
  /** Key size in bits (RSA modulus, curve size, 256 for ed25519). */
  bits: number;
  /** `<type> <base64>` without the comment, as stored. */
  content: string;
  /** `SHA256:` + unpadded base64 of the SHA-256 of the wire blob, as ssh-keygen -l prints it. */
  fingerprint: string;
}

export class SshKeyError extends Error {}

const ECDSA_CURVES: Record<string, { identifier: string; jwkCurve: string; bits: number; coordinateBytes: number }> = {
  'ecdsa-sha2-nistp256': { identifier: 'nistp256', jwkCurve: 'P-256', bits: 256, coordinateBytes: 32 },
  'ecdsa-sha2-nistp384': { identifier: 'nistp384', jwkCurve: 'P-384', bits: 384, coordinateBytes: 48 },
  'ecdsa-sha2-nistp521': { identifier: 'nistp521', jwkCurve: 'P-521', bits: 521, coordinateBytes: 66 },
};

/** Reads the length-prefixed strings of an SSH wire blob. */
class WireReader {
  private offset = 0;
  constructor(private readonly blob: Buffer) {}

  string(): Buffer {
    if (this.offset + 4 > this.blob.length) throw new SshKeyError('key data is truncated');
    const length = this.blob.readUInt32BE(this.offset);
    const start = this.offset + 4;
    if (start + length > this.blob.length) throw new SshKeyError('key data is truncated');
    this.offset = start + length;
    return this.blob.subarray(start, start + length);
  }

  /** An unsigned multiple-precision integer without its sign padding. */
  mpint(): Buffer {
    const value = this.string();
    if (value.length > 0 && (value[0] & 0x80) !== 0) throw new SshKeyError('negative integer in key data');
    let start = 0;
    while (start < value.length - 1 && value[start] === 0) start++;
    return value.subarray(start);
  }

  end(): void {
    if (this.offset !== this.blob.length) throw new SshKeyError('trailing bytes after key data');
  }
}

const base64url = (bytes: Buffer) => bytes.toString('base64url');

function bitLength(unsigned: Buffer): number {
  if (unsigned.length === 0 || (unsigned.length === 1 && unsigned[0] === 0)) return 0;
  return (unsigned.length - 1) * 8 + (32 - Math.clz32(unsigned[0]));
}

function checkWithCrypto(jwk: JsonWebKey): void {
  try {
    createPublicKey({ key: jwk, format: 'jwk' });
  } catch {
    throw new SshKeyError('key data is not a valid public key');
  }
}

function readKey(type: string, reader: WireReader): { algorithm: SshKeyAlgorithm; bits: number } {
  if (type === 'ssh-rsa') {
    const e = reader.mpint();
    const n = reader.mpint();
    reader.end();
    if (bitLength(e) < 2 || bitLength(n) < 512) throw new SshKeyError('RSA key parameters are invalid');
    checkWithCrypto({ kty: 'RSA', n: base64url(n), e: base64url(e) });
    return { algorithm: 'rsa', bits: bitLength(n) };
  }
  if (type === 'ssh-ed25519') {
    const point = reader.string();
    reader.end();
    if (point.length !== 32) throw new SshKeyError('ed25519 key must be 32 bytes');
    checkWithCrypto({ kty: 'OKP', crv: 'Ed25519', x: base64url(point) });
    return { algorithm: 'ed25519', bits: 256 };
  }
  const curve = Object.hasOwn(ECDSA_CURVES, type) ? ECDSA_CURVES[type] : undefined;
  if (curve) {
    const identifier = reader.string().toString('latin1');
    const point = reader.string();
    reader.end();
    if (identifier !== curve.identifier) throw new SshKeyError(`curve ${identifier} does not match key type ${type}`);
    const size = curve.coordinateBytes;
    if (point.length !== 1 + 2 * size || point[0] !== 0x04)
      throw new SshKeyError('ECDSA key must be an uncompressed curve point');
    checkWithCrypto({
      kty: 'EC',
      crv: curve.jwkCurve,
      x: base64url(point.subarray(1, 1 + size)),
      y: base64url(point.subarray(1 + size)),
    });
    return { algorithm: 'ecdsa', bits: curve.bits };
  }
  throw new SshKeyError(`unsupported key type ${type}`);
}

/** Parses one OpenSSH public key line; throws SshKeyError with a readable reason. */
export function parseSshPublicKey(text: string): ParsedSshKey {
  const line = text.replace(/\r?\n/g, ' ').trim();
  const fields = line.split(/\s+/);
  if (fields.length < 2 || line === '') throw new SshKeyError('expected "<type> <base64 key> [comment]"');
  const [type, encoded] = fields;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || encoded.length % 4 !== 0)
    throw new SshKeyError('key data is not valid base64');
  const blob = Buffer.from(encoded, 'base64');
  const reader = new WireReader(blob);
  const blobType = reader.string().toString('latin1');
  if (blobType !== type) throw new SshKeyError(`key type ${type} does not match the key data (${blobType})`);
  const { algorithm, bits } = readKey(type, reader);
  const fingerprint = `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
  return { type, algorithm, bits, content: `${type} ${encoded}`, fingerprint };
}
