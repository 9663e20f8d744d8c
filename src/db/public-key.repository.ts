// SSH public keys of users; fingerprints are unique across the site, titles per owner.
import { translated } from '../infra/database/errors.ts';
import type { DbClient, Models } from './prisma.ts';

export type PublicKey = Models.PublicKeyModel;

export interface PublicKeyFields {
  name: string;
  fingerprint: string;
  content: string;
  keyType: string;
}

export class PublicKeyRepository {
  constructor(private readonly client: DbClient) {}

  async existsWithFingerprint(fingerprint: string): Promise<boolean> {
    return (await this.client.publicKey.findUnique({ where: { fingerprint }, select: { id: true } })) !== null;
  }

  async ownerHasTitle(ownerId: number, name: string): Promise<boolean> {
    return (await this.client.publicKey.findFirst({ where: { ownerId, name }, select: { id: true } })) !== null;
  }

  create(ownerId: number, fields: PublicKeyFields): Promise<Models.PublicKeyModel> {
    return translated({ taken: 'public key' }, () => this.client.publicKey.create({ data: { ownerId, ...fields } }));
  }

  /** The owner of a key, or null when there is no key with this id. */
  async findOwnerId(id: number): Promise<number | null> {
    const key = await this.client.publicKey.findUnique({ where: { id }, select: { ownerId: true } });
    return key?.ownerId ?? null;
  }

  findById(id: number): Promise<PublicKey | null> {
    return this.client.publicKey.findUnique({ where: { id } });
  }

  async delete(ownerId: number, id: number): Promise<void> {
    await this.client.publicKey.deleteMany({ where: { id, ownerId } });
  }

  /** One page of a user's keys by id, optionally only the one with a fingerprint. */
  async listByOwner(
    ownerId: number,
    fingerprint: string | undefined,
    skip: number,
    take: number,
  ): Promise<{ keys: PublicKey[]; total: number }> {
    const where = { ownerId, ...(fingerprint ? { fingerprint } : {}) };
    const [keys, total] = await Promise.all([
      this.client.publicKey.findMany({ where, orderBy: { id: 'asc' }, skip, take }),
      this.client.publicKey.count({ where }),
    ]);
    return { keys, total };
  }
}
