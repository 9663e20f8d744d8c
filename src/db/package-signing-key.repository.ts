// An owner's keys for signing its repository indexes, one per kind. The private key is sealed with the at-rest
// cipher on the way in and opened only here, bound to its owner and kind.
import type { AtRestCipher } from '../crypto/at-rest-cipher.ts';
import { isUniqueViolation } from '../infra/database/errors.ts';
import type { DbClient } from './prisma.ts';

export type SigningKeyKind = 'pgp' | 'rsa';

export interface StoredSigningKey {
  publicKey: string;
  privateKey: string;
}

const sealContext = (ownerId: number, kind: SigningKeyKind) => `package-signing-key:${ownerId}:${kind}`;

export class PackageSigningKeyRepository {
  constructor(
    private readonly client: DbClient,
    private readonly cipher: AtRestCipher,
  ) {}

  async find(ownerId: number, kind: SigningKeyKind): Promise<StoredSigningKey | null> {
    const row = await this.client.packageSigningKey.findUnique({ where: { ownerId_kind: { ownerId, kind } } });
    if (!row) return null;
    return { publicKey: row.publicKey, privateKey: this.cipher.decrypt(row.privateKey, sealContext(ownerId, kind)) };
  }

  /** Stores the key unless the owner has one of this kind already (made meanwhile elsewhere); returns the stored one. */
  async keep(ownerId: number, kind: SigningKeyKind, key: StoredSigningKey): Promise<StoredSigningKey> {
    const privateKey = this.cipher.encrypt(key.privateKey, sealContext(ownerId, kind));
    try {
      await this.client.packageSigningKey.create({ data: { ownerId, kind, publicKey: key.publicKey, privateKey } });
      return key;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      return (await this.find(ownerId, kind))!;
    }
  }
}
