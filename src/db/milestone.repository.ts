// Milestones of a repository, each query scoped by the repository (Forgejo: models/issues/milestone.go).
import type { ListOptions } from '../domain/page.ts';
import type { DbClient, Prisma } from './prisma.ts';

export type MilestoneRow = Prisma.MilestoneModel;

export interface MilestoneFilter {
  /** null: open and closed. */
  closed: boolean | null;
  /** Part of the name, any case. */
  name: string;
}

export type MilestoneFields = Pick<
  Prisma.MilestoneUncheckedCreateInput,
  'name' | 'description' | 'isClosed' | 'closedAt' | 'deadlineAt'
>;

export class MilestoneRepository {
  constructor(private readonly client: DbClient) {}

  async list(
    repoId: number,
    filter: MilestoneFilter,
    page: ListOptions,
  ): Promise<{ items: MilestoneRow[]; total: number }> {
    const where: Prisma.MilestoneWhereInput = {
      repoId,
      ...(filter.closed === null ? {} : { isClosed: filter.closed }),
    };
    // Case-insensitive on both databases: filtered here, as milestones of one repository are few.
    const all = await this.client.milestone.findMany({
      where,
      orderBy: [{ deadlineAt: { sort: 'asc', nulls: 'last' } }, { id: 'asc' }],
    });
    const wanted = filter.name.toLowerCase();
    const matching = wanted ? all.filter((m) => m.name.toLowerCase().includes(wanted)) : all;
    return { items: matching.slice(page.skip, page.skip + page.limit), total: matching.length };
  }

  find(repoId: number, id: number): Promise<MilestoneRow | null> {
    return this.client.milestone.findFirst({ where: { repoId, id } });
  }

  findByName(repoId: number, name: string): Promise<MilestoneRow | null> {
    return this.client.milestone.findFirst({ where: { repoId, name } });
  }

  create(repoId: number, fields: MilestoneFields): Promise<MilestoneRow> {
    return this.client.milestone.create({ data: { ...fields, repoId } });
  }

  update(repoId: number, id: number, changes: Partial<MilestoneFields>): Promise<MilestoneRow> {
    return this.client.milestone.update({ where: { id, repoId }, data: { ...changes, updatedAt: new Date() } });
  }

  /** The milestone, and its issues left without one; run it in a transaction. */
  async delete(repoId: number, id: number): Promise<void> {
    await this.client.milestone.delete({ where: { id, repoId } });
    await this.client.issue.updateMany({ where: { repoId, milestoneId: id }, data: { milestoneId: 0 } });
  }
}
