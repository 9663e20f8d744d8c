// Actions variables, each query scoped by owner and repository. Names are stored upper-cased, so the unique index
// on (owner, repository, name) makes them unique regardless of case.
import type { ActionScope } from '../domain/action-scope.ts';
import type { ListOptions, Page } from '../domain/page.ts';
import { translated } from '../infra/database/errors.ts';
import type { DbClient, Prisma } from './prisma.ts';

export type ActionVariable = Prisma.ActionVariableModel;

export class ActionVariableRepository {
  constructor(private readonly client: DbClient) {}

  async list(scope: ActionScope, page: ListOptions): Promise<Page<ActionVariable>> {
    const where = { ownerId: scope.ownerId, repoId: scope.repoId };
    const [items, total] = await Promise.all([
      this.client.actionVariable.findMany({
        where,
        orderBy: [{ name: 'asc' }, { id: 'asc' }],
        skip: page.skip,
        take: page.limit,
      }),
      this.client.actionVariable.count({ where }),
    ]);
    return { items, total };
  }

  /** `name` in its stored (upper-case) form. */
  async find(scope: ActionScope, name: string): Promise<ActionVariable | null> {
    return this.client.actionVariable.findFirst({ where: { ownerId: scope.ownerId, repoId: scope.repoId, name } });
  }

  async create(scope: ActionScope, name: string, data: string): Promise<ActionVariable> {
    return translated({ taken: 'variable name' }, () =>
      this.client.actionVariable.create({ data: { ownerId: scope.ownerId, repoId: scope.repoId, name, data } }),
    );
  }

  async update(scope: ActionScope, id: number, changes: { name: string; data: string }): Promise<void> {
    await translated({ taken: 'variable name' }, () =>
      this.client.actionVariable.update({
        where: { id, ownerId: scope.ownerId, repoId: scope.repoId },
        data: { ...changes, updatedAt: new Date() },
      }),
    );
  }

  async delete(scope: ActionScope, id: number): Promise<void> {
    await this.client.actionVariable.delete({ where: { id, ownerId: scope.ownerId, repoId: scope.repoId } });
  }
}
