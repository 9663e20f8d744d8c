// Milestones of a repository (Forgejo: routers/api/v1/repo/milestone.go, models/issues/milestone.go).
import type { MilestoneRow } from '../db/milestone.repository.ts';
import type { RepoWithOwner } from '../db/repository-details.ts';
import { NotFoundError, ValidationError } from '../domain/errors.ts';
import type { ListOptions, Page } from '../domain/page.ts';
import type { ServiceDeps } from './service-deps.ts';

export interface MilestoneInput {
  title?: string;
  description?: string;
  state?: string;
  due_on?: string;
}

const MAX_ID = 2 ** 31 - 1;

export class MilestoneService {
  constructor(private readonly deps: ServiceDeps) {}

  private get milestones() {
    return this.deps.repos.milestones;
  }

  /** `state` open (the default), closed or all; `name` a part of the name. */
  list(repo: RepoWithOwner, state: string | undefined, name: string | undefined, page: ListOptions) {
    const closed = state === 'all' ? null : state === 'closed';
    return this.milestones.list(repo.id, { closed, name: name ?? '' }, page) as Promise<Page<MilestoneRow>>;
  }

  async create(repo: RepoWithOwner, input: MilestoneInput): Promise<MilestoneRow> {
    const title = input.title ?? '';
    if (title.trim() === '') throw new ValidationError('[Title]: Required');
    const closed = input.state === 'closed';
    return this.milestones.create(repo.id, {
      name: title,
      description: input.description ?? '',
      isClosed: closed,
      closedAt: closed ? new Date() : null,
      deadlineAt: input.due_on ? new Date(input.due_on) : null,
    });
  }

  /** An integer segment is an id, anything else a name (Forgejo: getMilestoneByIDOrName). */
  async get(repo: RepoWithOwner, idOrName: string): Promise<MilestoneRow> {
    let milestone: MilestoneRow | null = null;
    if (/^\d+$/.test(idOrName)) {
      const id = Number(idOrName);
      if (id <= MAX_ID) milestone = await this.milestones.find(repo.id, id);
    } else {
      milestone = await this.milestones.findByName(repo.id, idOrName);
    }
    if (!milestone) throw new NotFoundError();
    return milestone;
  }

  /** Only what is sent changes; an empty title keeps the old one, as in Forgejo. */
  async edit(repo: RepoWithOwner, idOrName: string, input: MilestoneInput): Promise<MilestoneRow> {
    const current = await this.get(repo, idOrName);
    const closed = input.state === undefined ? current.isClosed : input.state === 'closed';
    return this.milestones.update(repo.id, current.id, {
      ...(input.title ? { name: input.title } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.due_on ? { deadlineAt: new Date(input.due_on) } : {}),
      isClosed: closed,
      closedAt: closed ? (current.closedAt ?? new Date()) : null,
    });
  }

  async delete(repo: RepoWithOwner, idOrName: string): Promise<void> {
    const milestone = await this.get(repo, idOrName);
    await this.deps.transactions.run((repos) => repos.milestones.delete(repo.id, milestone.id));
  }
}
