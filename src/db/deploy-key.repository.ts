// Deploy keys: a repository's grant (DeployKey) over an owner-less public key, shared by every repository that
// grants the same key; the key row goes with its last grant.
import { translated } from '../infra/database/errors.ts';
import type { Models } from './entities.ts';
import type { DbClient } from './prisma.ts';

export type DeployKeyRow = Models.DeployKeyModel & { key: Models.PublicKeyModel };

export interface DeployKeyFilter {
  keyId?: number;
  fingerprint?: string;
}

export class DeployKeyRepository {
  constructor(private readonly client: DbClient) {}

  findKeyByFingerprint(fingerprint: string): Promise<Models.PublicKeyModel | null> {
    return this.client.publicKey.findUnique({ where: { fingerprint } });
  }

  createKey(fields: { name: string; fingerprint: string; content: string; keyType: string }) {
    return translated({ taken: 'public key' }, () =>
      this.client.publicKey.create({ data: { ...fields, ownerId: null } }),
    );
  }

  async grantExists(repoId: number, where: { keyId: number } | { name: string }): Promise<boolean> {
    return (await this.client.deployKey.findFirst({ where: { repoId, ...where }, select: { id: true } })) !== null;
  }

  create(fields: { keyId: number; repoId: number; name: string; fingerprint: string; mode: number }) {
    return translated({ taken: 'deploy key' }, () =>
      this.client.deployKey.create({ data: fields, include: { key: true } }),
    );
  }

  findById(id: number): Promise<DeployKeyRow | null> {
    return this.client.deployKey.findUnique({ where: { id }, include: { key: true } });
  }

  async list(repoId: number, filter: DeployKeyFilter, skip: number, take: number) {
    const where = {
      repoId,
      ...(filter.keyId ? { keyId: filter.keyId } : {}),
      ...(filter.fingerprint ? { fingerprint: filter.fingerprint } : {}),
    };
    const [keys, total] = await Promise.all([
      this.client.deployKey.findMany({ where, include: { key: true }, orderBy: { id: 'asc' }, skip, take }),
      this.client.deployKey.count({ where }),
    ]);
    return { keys, total };
  }

  /** Removes a grant, and its key when no repository grants it any more; run it in a transaction. */
  async delete(grant: Models.DeployKeyModel): Promise<void> {
    await this.client.deployKey.deleteMany({ where: { id: grant.id } });
    if ((await this.client.deployKey.count({ where: { keyId: grant.keyId } })) === 0)
      await this.client.publicKey.deleteMany({ where: { id: grant.keyId, ownerId: null } });
  }
}
