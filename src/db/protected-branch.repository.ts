// Branch protection rules (ProtectedBranch rows), one per repository and rule name; options kept as JSON.
import type { Models } from './entities.ts';
import type { DbClient } from './prisma.ts';

export type ProtectedBranchRow = Models.ProtectedBranchModel;

export class ProtectedBranchRepository {
  constructor(private readonly client: DbClient) {}

  /** A repository's rules, oldest first (Forgejo lists them by id). */
  list(repoId: number): Promise<ProtectedBranchRow[]> {
    return this.client.protectedBranch.findMany({ where: { repoId }, orderBy: { id: 'asc' } });
  }

  find(repoId: number, ruleName: string): Promise<ProtectedBranchRow | null> {
    return this.client.protectedBranch.findUnique({ where: { repoId_ruleName: { repoId, ruleName } } });
  }

  create(repoId: number, ruleName: string, options: string): Promise<ProtectedBranchRow> {
    return this.client.protectedBranch.create({ data: { repoId, ruleName, options } });
  }

  update(id: number, options: string): Promise<ProtectedBranchRow> {
    return this.client.protectedBranch.update({ where: { id }, data: { options, updatedAt: new Date() } });
  }

  async delete(id: number): Promise<void> {
    await this.client.protectedBranch.deleteMany({ where: { id } });
  }

  async deleteForRepo(repoId: number): Promise<void> {
    await this.client.protectedBranch.deleteMany({ where: { repoId } });
  }
}
