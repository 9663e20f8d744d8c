// Labels of organizations and repositories (Forgejo: routers/api/v1/org/label.go, repo/label.go,
// models/issues/label.go): one set of rules for both, the owner given as a scope.
import type { Label, LabelScope } from '../db/label.repository.ts';
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

export class LabelService {
  constructor(private readonly deps: ServiceDeps) {}

  private get labels() {
    return this.deps.repos.labels;
  }

  async list(scope: LabelScope, sort: LabelSort, page: ListOptions): Promise<Page<Label>> {
    return this.labels.list(scope, sort, page);
  }

  async create(scope: LabelScope, input: NewLabel): Promise<Label> {
    checkName(input.name);
    const color = colorOrFail(input.color);
    return this.labels.create(scope, {
      name: input.name,
      color,
      description: input.description ?? '',
      exclusive: input.exclusive ?? false,
      archivedAt: input.is_archived ? new Date() : null,
    });
  }

  /** Rule 8: an integer segment is an id, anything else a name. */
  async get(scope: LabelScope, idOrName: string): Promise<Label> {
    let label: Label | null;
    if (/^-?\d+$/.test(idOrName)) {
      const id = Number(idOrName);
      if (Math.abs(id) > 2 ** 31 - 1) throw new NotFoundError();
      label = await this.labels.find(scope, id);
    } else {
      label = await this.labels.findByName(scope, idOrName);
    }
    if (!label) throw new NotFoundError();
    return label;
  }

  private async labelOf(scope: LabelScope, id: number): Promise<Label> {
    const label = Math.abs(id) <= 2 ** 31 - 1 ? await this.labels.find(scope, id) : null;
    if (!label) throw new NotFoundError();
    return label;
  }

  /** Rule 9: only the fields sent change, except is_archived, which is true only when sent true. */
  async edit(scope: LabelScope, id: number, changes: LabelChanges): Promise<Label> {
    const current = await this.labelOf(scope, id);
    if (changes.name !== undefined) checkName(changes.name);
    const archive = changes.is_archived === true;
    return this.labels.update(scope, current.id, {
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(changes.exclusive !== undefined ? { exclusive: changes.exclusive } : {}),
      ...(changes.color !== undefined ? { color: colorOrFail(changes.color) } : {}),
      ...(changes.description !== undefined ? { description: changes.description } : {}),
      // Only a newly archived label gets a new date.
      archivedAt: archive ? (current.archivedAt ?? new Date()) : null,
    });
  }

  async delete(scope: LabelScope, id: number): Promise<void> {
    const label = await this.labelOf(scope, id);
    await this.deps.transactions.run((repos) => repos.labels.delete(scope, label.id));
  }
}
