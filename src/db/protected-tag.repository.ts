// Tag protection rules (ProtectedTag rows) of a repository; the allow-lists are JSON lists of ids.
import type { Models } from './entities.ts';
import type { DbClient } from './prisma.ts';

export type ProtectedTagRow = Models.ProtectedTagModel;

export interface ProtectedTagFields {
  namePattern: string;
  allowlistUserIds: string;
  allowlistTeamIds: string;
}

export class ProtectedTagRepository {
  constructor(private readonly client: DbClient) {}

  /** A repository's rules, oldest first (Forgejo lists them by id). */
  list(repoId: number): Promise<ProtectedTagRow[]> {
    return this.client.protectedTag.findMany({ where: { repoId }, orderBy: { id: 'asc' } });
  }

  find(repoId: number, id: number): Promise<ProtectedTagRow | null> {
    return this.client.protectedTag.findFirst({ where: { id, repoId } });
  }

  create(repoId: number, fields: ProtectedTagFields): Promise<ProtectedTagRow> {
    return this.client.protectedTag.create({ data: { repoId, ...fields } });
  }

  update(id: number, fields: ProtectedTagFields): Promise<ProtectedTagRow> {
    return this.client.protectedTag.update({ where: { id }, data: { ...fields, updatedAt: new Date() } });
  }

  async delete(id: number): Promise<void> {
    await this.client.protectedTag.deleteMany({ where: { id } });
  }
}
