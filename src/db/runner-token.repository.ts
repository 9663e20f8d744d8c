// Runner registration tokens per scope (instance, owner or repository); the newest one of a scope is its token.
import type { ActionScope } from '../domain/action-scope.ts';
import type { DbClient, Prisma } from './prisma.ts';

export type RunnerToken = Prisma.ActionRunnerTokenModel;

export class RunnerTokenRepository {
  constructor(private readonly client: DbClient) {}

  async latest(scope: ActionScope): Promise<RunnerToken | null> {
    return this.client.actionRunnerToken.findFirst({
      where: { ownerId: scope.ownerId, repoId: scope.repoId },
      orderBy: { id: 'desc' },
    });
  }

  async create(scope: ActionScope, token: string): Promise<RunnerToken> {
    return this.client.actionRunnerToken.create({
      data: { ownerId: scope.ownerId, repoId: scope.repoId, token, isActive: true },
    });
  }
}
