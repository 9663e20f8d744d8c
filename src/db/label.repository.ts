// Labels of organizations (rows with orgId set), each query scoped by the organization; and a new repository's
// labels from a template.
import { translated } from '../infra/database/errors.ts';
import type { LabelSort } from '../domain/label.ts';
import type { ListOptions } from '../domain/page.ts';
import type { DbClient, Prisma } from './prisma.ts';

export type Label = Prisma.LabelModel;

const ORDER: Record<LabelSort, Prisma.LabelOrderByWithRelationInput[]> = {
  alphabetically: [{ name: 'asc' }, { id: 'asc' }],
  reversealphabetically: [{ name: 'desc' }, { id: 'asc' }],
  leastissues: [{ numIssues: 'asc' }, { id: 'asc' }],
  mostissues: [{ numIssues: 'desc' }, { id: 'asc' }],
};

/** The columns a label is created with or changed by. */
export type OrgLabelFields = Pick<
  Prisma.LabelUncheckedCreateInput,
  'name' | 'color' | 'description' | 'exclusive' | 'archivedAt'
>;

export class LabelRepository {
  constructor(private readonly client: DbClient) {}

  async listOfOrg(orgId: number, sort: LabelSort, page: ListOptions): Promise<{ items: Label[]; total: number }> {
    const where = { orgId };
    const [items, total] = await Promise.all([
      this.client.label.findMany({ where, orderBy: ORDER[sort], skip: page.skip, take: page.limit }),
      this.client.label.count({ where }),
    ]);
    return { items, total };
  }

  async createForOrg(orgId: number, fields: OrgLabelFields): Promise<Label> {
    return this.client.label.create({ data: { ...fields, orgId } });
  }

  async createManyForRepo(
    repoId: number,
    labels: ReadonlyArray<Pick<Prisma.LabelUncheckedCreateInput, 'name' | 'color' | 'description' | 'exclusive'>>,
  ): Promise<void> {
    if (labels.length > 0) await this.client.label.createMany({ data: labels.map((label) => ({ ...label, repoId })) });
  }

  async findInOrg(orgId: number, id: number): Promise<Label | null> {
    return this.client.label.findFirst({ where: { orgId, id } });
  }

  async findInOrgByName(orgId: number, name: string): Promise<Label | null> {
    return this.client.label.findFirst({ where: { orgId, name } });
  }

  async updateInOrg(orgId: number, id: number, changes: Partial<OrgLabelFields>): Promise<Label> {
    return translated({ gone: 'label' }, () =>
      this.client.label.update({ where: { id, orgId }, data: { ...changes, updatedAt: new Date() } }),
    );
  }

  /** The label and its assignments to issues; run it in a transaction. */
  async deleteInOrg(orgId: number, id: number): Promise<void> {
    // The label first: it fails when the label is not the organization's, before any assignment goes.
    await translated({ gone: 'label' }, () => this.client.label.delete({ where: { id, orgId } }));
    await this.client.issueLabel.deleteMany({ where: { labelId: id } });
  }
}
