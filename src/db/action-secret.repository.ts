// Actions secrets, each query scoped by owner and repository. Values are encrypted here, on the way in, and only
// values() decrypts them: nothing else reads a value back.
import type { AtRestCipher } from '../crypto/at-rest-cipher.ts';
import type { ActionScope } from '../domain/action-scope.ts';
import type { ListOptions, Page } from '../domain/page.ts';
import { translated } from '../infra/database/errors.ts';
import type { DbClient, Prisma } from './prisma.ts';

export type ActionSecret = Prisma.SecretModel;

/** What the ciphertext is bound to: the row's scope and name, which never change. */
function sealContext(scope: ActionScope, name: string): string {
  return `secret:${scope.ownerId}:${scope.repoId}:${name}`;
}

export class ActionSecretRepository {
  constructor(
    private readonly client: DbClient,
    private readonly cipher: AtRestCipher,
  ) {}

  async list(scope: ActionScope, page: ListOptions): Promise<Page<ActionSecret>> {
    const where = { ownerId: scope.ownerId, repoId: scope.repoId };
    const [items, total] = await Promise.all([
      this.client.secret.findMany({
        where,
        orderBy: [{ name: 'asc' }, { id: 'asc' }],
        skip: page.skip,
        take: page.limit,
      }),
      this.client.secret.count({ where }),
    ]);
    return { items, total };
  }

  /** `name` in its stored (upper-case) form. */
  async find(scope: ActionScope, name: string): Promise<ActionSecret | null> {
    return this.client.secret.findFirst({ where: { ownerId: scope.ownerId, repoId: scope.repoId, name } });
  }

  async create(scope: ActionScope, name: string, value: string): Promise<ActionSecret> {
    const data = this.cipher.encrypt(value, sealContext(scope, name));
    return translated({ taken: 'secret name' }, () =>
      this.client.secret.create({ data: { ownerId: scope.ownerId, repoId: scope.repoId, name, data } }),
    );
  }

  async replaceValue(scope: ActionScope, secret: ActionSecret, value: string): Promise<void> {
    const data = this.cipher.encrypt(value, sealContext(scope, secret.name));
    await this.client.secret.update({
      where: { id: secret.id, ownerId: scope.ownerId, repoId: scope.repoId },
      data: { data },
    });
  }

  /** Whether a secret of that name was there. */
  async delete(scope: ActionScope, name: string): Promise<boolean> {
    const { count } = await this.client.secret.deleteMany({
      where: { ownerId: scope.ownerId, repoId: scope.repoId, name },
    });
    return count > 0;
  }

  /** Every secret of the scope, decrypted: what a job of that owner or repository is given (Forgejo: FetchActionSecrets). */
  async values(scope: ActionScope): Promise<Map<string, string>> {
    const rows = await this.client.secret.findMany({
      where: { ownerId: scope.ownerId, repoId: scope.repoId },
      orderBy: { name: 'asc' },
    });
    return new Map(rows.map((row) => [row.name, this.cipher.decrypt(row.data, sealContext(scope, row.name))]));
  }
}
