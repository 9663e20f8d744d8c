// The keys an owner's system-package repositories are signed with (Forgejo: services/packages/<type>/, one key pair
// per owner, made on first use): an OpenPGP key for Debian, RPM, Arch and ALT indexes, an RSA key for Alpine's.
// Keys are generated off the event loop, stored sealed (db/package-signing-key.repository.ts), and kept parsed in
// memory for the process.
import { generateKeyPair, sign as rsaSign } from 'node:crypto';
import { promisify } from 'node:util';
import { LRUCache } from 'lru-cache';
import type * as OpenPgp from 'openpgp';
import type { User } from '../../db/entities.ts';
import type { SigningKeyKind, StoredSigningKey } from '../../db/package-signing-key.repository.ts';
import type { ServiceDeps } from '../../services/service-deps.ts';

const RSA_BITS = 3072;
// Loaded on first signature: openpgp is a large module most processes never need (idle RSS, start time).
let openpgpModule: typeof OpenPgp | undefined;
const openpgp = () => (openpgpModule ??= require('openpgp') as typeof OpenPgp);
const generateRsa = promisify(generateKeyPair);

export interface PgpSigner {
  /** The public key, ASCII-armored, as clients import it. */
  readonly publicKeyArmored: string;
  /** The public key in binary form (what `signed-by=` and pacman keyrings also accept). */
  readonly publicKeyBinary: Uint8Array;
  /** The key's fingerprint, upper-case hex. */
  readonly fingerprint: string;
  /** A detached signature of the data: armored (`Release.gpg`, `repomd.xml.asc`) or binary (pacman's `.sig`). */
  detachSign(data: Uint8Array | string, format: 'armored' | 'binary'): Promise<string | Uint8Array>;
  /** The text as an OpenPGP clear-signed message (`InRelease`). */
  clearSign(text: string): Promise<string>;
}

export interface RsaSigner {
  /** The public key as PEM (SubjectPublicKeyInfo), as Alpine's /etc/apk/keys holds it. */
  readonly publicKeyPem: string;
  /** A PKCS#1 v1.5 signature of the data with the given hash. */
  sign(data: Uint8Array, hash: 'sha1' | 'sha256'): Buffer;
}

async function pgpSigner(stored: StoredSigningKey): Promise<PgpSigner> {
  const privateKey = await openpgp().readPrivateKey({ armoredKey: stored.privateKey });
  const publicKey = await openpgp().readKey({ armoredKey: stored.publicKey });
  return {
    publicKeyArmored: stored.publicKey,
    publicKeyBinary: publicKey.write(),
    fingerprint: publicKey.getFingerprint().toUpperCase(),
    async detachSign(data, format) {
      // A binary-mode signature: it covers the exact bytes, as gpgv checks a detached signature.
      const binary = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
      const message = await openpgp().createMessage({ binary });
      if (format === 'armored') return openpgp().sign({ message, signingKeys: privateKey, detached: true });
      return openpgp().sign({ message, signingKeys: privateKey, detached: true, format: 'binary' });
    },
    async clearSign(text) {
      const message = await openpgp().createCleartextMessage({ text });
      return openpgp().sign({ message, signingKeys: privateKey });
    },
  };
}

function rsaSigner(stored: StoredSigningKey): RsaSigner {
  return {
    publicKeyPem: stored.publicKey,
    sign: (data, hash) => rsaSign(hash, data, stored.privateKey),
  };
}

async function newPgpKey(owner: User): Promise<StoredSigningKey> {
  const { privateKey, publicKey } = await openpgp().generateKey({
    type: 'rsa',
    rsaBits: RSA_BITS,
    userIDs: [{ name: owner.name }],
    format: 'armored',
  });
  return { privateKey, publicKey };
}

async function newRsaKey(): Promise<StoredSigningKey> {
  const { privateKey, publicKey } = await generateRsa('rsa', {
    modulusLength: RSA_BITS,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { privateKey, publicKey };
}

export class PackageSigningKeys {
  private readonly signers = new LRUCache<string, Promise<PgpSigner | RsaSigner>>({ max: 200 });

  constructor(private readonly deps: ServiceDeps) {}

  /** The owner's OpenPGP signing key, made on first use. */
  pgp(owner: User): Promise<PgpSigner> {
    return this.signer(owner, 'pgp', () => newPgpKey(owner), pgpSigner) as Promise<PgpSigner>;
  }

  /** The owner's RSA signing key (Alpine), made on first use. */
  rsa(owner: User): Promise<RsaSigner> {
    return this.signer(owner, 'rsa', newRsaKey, async (stored) => rsaSigner(stored)) as Promise<RsaSigner>;
  }

  private signer<T extends PgpSigner | RsaSigner>(
    owner: User,
    kind: SigningKeyKind,
    generate: () => Promise<StoredSigningKey>,
    open: (stored: StoredSigningKey) => Promise<T>,
  ): Promise<T> {
    const cacheKey = `${owner.id}:${kind}`;
    const cached = this.signers.get(cacheKey);
    if (cached) return cached as Promise<T>;
    const made = (async () => {
      const keys = this.deps.repos.packageSigningKeys;
      const stored = (await keys.find(owner.id, kind)) ?? (await keys.keep(owner.id, kind, await generate()));
      return open(stored);
    })();
    this.signers.set(cacheKey, made);
    made.catch(() => this.signers.delete(cacheKey));
    return made;
  }
}
