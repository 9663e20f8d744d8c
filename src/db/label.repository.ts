// Labels of an organization (orgId set) or of a repository (repoId set), each query scoped by its owner; and a new
// repository's labels from a template.
import { translated } from '../infra/database/errors.ts';
import type { LabelSort } from '../domain/label.ts';
import type { ListOptions } from '../domain/page.ts';
import type { DbClient, Prisma } from './prisma.ts';

export type Label = Prisma.LabelModel;

/** Whose labels: an organization's or a repository's. */
export type LabelScope = { readonly orgId: number } | { readonly repoId: number };

const ORDER: Record<LabelSort, Prisma.LabelOrderByWithRelationInput[]> = {
  alphabetically: [{ name: 'asc' }, { id: 'asc' }],
  reversealphabetically: [{ name: 'desc' }, { id: 'asc' }],
  leastissues: [{ numIssues: 'asc' }, { id: 'asc' }],
  mostissues: [{ numIssues: 'desc' }, { id: 'asc' }],
};

/** The columns a label is created with or changed by. */
export type LabelFields = Pick<
  Prisma.LabelUncheckedCreateInput,
  'name' | 'color' | 'description' | 'exclusive' | 'archivedAt'
>;

const scoped = (scope: LabelScope) => ('orgId' in scope ? { orgId: scope.orgId } : { repoId: scope.repoId });

export class LabelRepository {
  constructor(private readonly client: DbClient) {}

  async list(scope: LabelScope, sort: LabelSort, page: ListOptions): Promise<{ items: Label[]; total: number }> {
    const where = scoped(scope);
    const [items, total] = await Promise.all([
      this.client.label.findMany({ where, orderBy: ORDER[sort], skip: page.skip, take: page.limit }),
      this.client.label.count({ where }),
    ]);
    return { items, total };
  }

  async create(scope: LabelScope, fields: LabelFields): Promise<Label> {
    return this.client.label.create({ data: { ...fields, ...scoped(scope) } });
  }

  async createManyForRepo(
    repoId: number,
    labels: ReadonlyArray<Pick<Prisma.LabelUncheckedCreateInput, 'name' | 'color' | 'description' | 'exclusive'>>,
  ): Promise<void> {
    if (labels.length > 0) await this.client.label.createMany({ data: labels.map((label) => ({ ...label, repoId })) });
  }

  async find(scope: LabelScope, id: number): Promise<Label | null> {
    return this.client.label.findFirst({ where: { ...scoped(scope), id } });
  }

  async findByName(scope: LabelScope, name: string): Promise<Label | null> {
    return this.client.label.findFirst({ where: { ...scoped(scope), name } });
  }

  async update(scope: LabelScope, id: number, changes: Partial<LabelFields>): Promise<Label> {
    return translated({ gone: 'label' }, () =>
      this.client.label.update({ where: { id, ...scoped(scope) }, data: { ...changes, updatedAt: new Date() } }),
    );
  }

  /** The label and its assignments to issues; run it in a transaction. */
  async delete(scope: LabelScope, id: number): Promise<void> {
    // The label first: it fails when the label is not the scope's, before any assignment goes.
    await translated({ gone: 'label' }, () => this.client.label.delete({ where: { id, ...scoped(scope) } }));
    await this.client.issueLabel.deleteMany({ where: { labelId: id } });
  }

  /** Labels a repository's issues may carry (its own, its organization's) named by id or by name. */
  listUsable(repoId: number, orgId: number | null, ids: readonly number[], names: readonly string[]): Promise<Label[]> {
    const owners: Prisma.LabelWhereInput[] = [{ repoId }, ...(orgId !== null ? [{ orgId }] : [])];
    return this.client.label.findMany({
      where: { OR: owners, AND: { OR: [{ id: { in: [...ids] } }, { name: { in: [...names] } }] } },
      orderBy: { id: 'asc' },
    });
  }

  async unlink(issueId: number, labelIds: readonly number[]): Promise<void> {
    await this.client.issueLabel.deleteMany({ where: { issueId, labelId: { in: [...labelIds] } } });
  }
}
