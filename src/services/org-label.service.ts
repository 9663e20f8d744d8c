// Organization labels (Forgejo: routers/api/v1/org/label.go, models/issues/label.go).
import type { Label } from '../db/label.repository.ts';
import type { User } from '../db/entities.ts';
import { type LabelSort, normaliseLabelColor } from '../domain/label.ts';
import { NotFoundError, ValidationError } from '../domain/errors.ts';
import type { ListOptions, Page } from '../domain/page.ts';
import type { ServiceDeps } from './service-deps.ts';

export interface NewLabel {
  name: string;
  color: string;
  description?: string;
  exclusive?: boolean;
  is_archived?: boolean;
}

export type LabelChanges = Partial<NewLabel>;

function colorOrFail(color: string): string {
  const normalised = normaliseLabelColor(color);
  if (!normalised) throw new ValidationError(`[Color]: bad color code: ${color.trim()}`);
  return normalised;
}

function checkName(name: string): void {
  if (name.trim() === '') throw new ValidationError('[Name]: Required');
}

export class OrgLabelService {
  constructor(private readonly deps: ServiceDeps) {}

  private get labels() {
    return this.deps.repos.labels;
  }

  async list(org: User, sort: LabelSort, page: ListOptions): Promise<{ org: User } & Page<Label>> {
    return { org, ...(await this.labels.listOfOrg(org.id, sort, page)) };
  }

  async create(org: User, input: NewLabel): Promise<{ org: User; label: Label }> {
    checkName(input.name);
    const color = colorOrFail(input.color);
    const label = await this.labels.createForOrg(org.id, {
      name: input.name,
      color,
      description: input.description ?? '',
      exclusive: input.exclusive ?? false,
      archivedAt: input.is_archived ? new Date() : null,
    });
    return { org, label };
  }

  /** Rule 8: an integer segment is an id, anything else a name. */
  async get(org: User, idOrName: string): Promise<{ org: User; label: Label }> {
    let label: Label | null;
    if (/^-?\d+$/.test(idOrName)) {
      const id = Number(idOrName);
      if (Math.abs(id) > 2 ** 31 - 1) throw new NotFoundError();
      label = await this.labels.findInOrg(org.id, id);
    } else {
      label = await this.labels.findInOrgByName(org.id, idOrName);
    }
    if (!label) throw new NotFoundError();
    return { org, label };
  }

  private async labelOf(org: User, id: number): Promise<Label> {
    const label = await this.labels.findInOrg(org.id, id);
    if (!label) throw new NotFoundError();
    return label;
  }

  /** Rule 9: only the fields sent change, except is_archived, which is true only when sent true. */
  async edit(org: User, id: number, changes: LabelChanges): Promise<{ org: User; label: Label }> {
    const current = await this.labelOf(org, id);
    if (changes.name !== undefined) checkName(changes.name);
    const archive = changes.is_archived === true;
    const label = await this.labels.updateInOrg(org.id, current.id, {
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(changes.exclusive !== undefined ? { exclusive: changes.exclusive } : {}),
      ...(changes.color !== undefined ? { color: colorOrFail(changes.color) } : {}),
      ...(changes.description !== undefined ? { description: changes.description } : {}),
      // Only a newly archived label gets a new date.
      archivedAt: archive ? (current.archivedAt ?? new Date()) : null,
    });
    return { org, label };
  }

  async delete(org: User, id: number): Promise<void> {
    const label = await this.labelOf(org, id);
    await this.deps.transactions.run((repos) => repos.labels.deleteInOrg(org.id, label.id));
  }
}
