// The labels of one issue or pull request: list, add, replace, remove, clear (Forgejo:
// routers/api/v1/repo/issue_label.go). Labels are named by id or by name, among the repository's and its
// organization's; unknown ones are left out, as in Forgejo. Label counters move in the same transaction.
import type { User } from '../db/entities.ts';
import type { IssueRow, LabelRow } from '../db/issue.repository.ts';
import type { Repositories } from '../db/repositories.ts';
import type { RepoWithPermission } from '../db/repository-details.ts';
import { canWriteIssue } from '../domain/access/content-visibility.ts';
import { isOrganization } from '../domain/access/owner-visibility.ts';
import { ForbiddenError, RepoArchivedError, ValidationError } from '../domain/errors.ts';
import type { IssueEvents } from './issue-events.ts';
import type { IssueService } from './issue.service.ts';
import type { ServiceDeps } from './service-deps.ts';

const MAX_ID = 2 ** 31 - 1;

export class IssueLabelService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly issues: IssueService,
    private readonly events: IssueEvents,
  ) {}

  async list(access: RepoWithPermission, index: number, viewer: User | null): Promise<LabelRow[]> {
    const issue = await this.issues.findReadable(access, index, viewer);
    return (await this.deps.repos.issues.labelsOf([issue.id])).get(issue.id) ?? [];
  }

  /** The issue, when the caller may change its labels (per issue, so not a guard's: its unit decides). */
  private async writable(access: RepoWithPermission, index: number, doer: User): Promise<IssueRow> {
    const issue = await this.issues.findReadable(access, index, doer);
    if (!canWriteIssue(access.permission, issue.isPull, doer.isAdmin))
      throw new ForbiddenError('user should have write access to the issues');
    const { repo } = access;
    if (repo.isArchived) throw new RepoArchivedError(`repo is archived: ${repo.ownerName}/${repo.name}`);
    return issue;
  }

  private async named(access: RepoWithPermission, wanted: readonly unknown[]): Promise<LabelRow[]> {
    const ids = wanted.filter((v): v is number => typeof v === 'number' && Number.isInteger(v) && v > 0 && v <= MAX_ID);
    const names = wanted.filter((v): v is string => typeof v === 'string');
    if (ids.length + names.length !== wanted.length) throw new ValidationError('[Labels]: ids or names of labels');
    if (ids.length + names.length === 0) return [];
    const { repo } = access;
    return this.deps.repos.labels.listUsable(repo.id, isOrganization(repo.owner) ? repo.ownerId : null, ids, names);
  }

  /** Links and unlinks, moving each label's counters, and tells of the change (Forgejo: IssueChangeLabels). */
  private async relabel(
    repos: Repositories,
    access: RepoWithPermission,
    doer: User,
    issue: IssueRow,
    add: number[],
    remove: number[],
  ): Promise<void> {
    const closed = issue.isClosed ? 1 : 0;
    if (remove.length > 0) {
      await repos.labels.unlink(issue.id, remove);
      await repos.issues.countLabels(remove, { all: -1, closed: -closed });
    }
    if (add.length > 0) {
      await repos.issues.addLabels(issue.id, add);
      await repos.issues.countLabels(add, { all: 1, closed });
    }
    await repos.issues.update(issue.id, { updatedAt: new Date() });
    if (add.length + remove.length === 0) return;
    await this.events.emit(repos, {
      kind: 'labeled',
      actor: doer,
      repo: access.repo,
      issue,
      mentionedIds: [],
      assignedIds: [],
    });
  }

  private async change(
    access: RepoWithPermission,
    index: number,
    doer: User,
    next: (current: Set<number>, given: LabelRow[]) => Set<number>,
    wanted: readonly unknown[] = [],
  ): Promise<LabelRow[]> {
    const issue = await this.writable(access, index, doer);
    const given = await this.named(access, wanted);
    await this.deps.transactions.run(async (repos) => {
      const current = new Set(((await repos.issues.labelsOf([issue.id])).get(issue.id) ?? []).map((l) => l.id));
      const target = next(current, given);
      await this.relabel(
        repos,
        access,
        doer,
        issue,
        [...target].filter((id) => !current.has(id)),
        [...current].filter((id) => !target.has(id)),
      );
    });
    return (await this.deps.repos.issues.labelsOf([issue.id])).get(issue.id) ?? [];
  }

  add(access: RepoWithPermission, index: number, doer: User, wanted: readonly unknown[]): Promise<LabelRow[]> {
    return this.change(
      access,
      index,
      doer,
      (current, given) => new Set([...current, ...given.map((l) => l.id)]),
      wanted,
    );
  }

  replace(access: RepoWithPermission, index: number, doer: User, wanted: readonly unknown[]): Promise<LabelRow[]> {
    return this.change(access, index, doer, (_current, given) => new Set(given.map((l) => l.id)), wanted);
  }

  async clear(access: RepoWithPermission, index: number, doer: User): Promise<void> {
    await this.change(access, index, doer, () => new Set());
  }

  /** A label that does not exist is a 422, as in Forgejo. */
  async remove(access: RepoWithPermission, index: number, doer: User, labelId: number): Promise<void> {
    const issue = await this.writable(access, index, doer);
    const [label] = await this.named(access, [labelId]);
    if (!label) throw new ValidationError(`label does not exist [label_id: ${labelId}]`);
    await this.deps.transactions.run(async (repos) => {
      const current = (await repos.issues.labelsOf([issue.id])).get(issue.id) ?? [];
      if (current.some((l) => l.id === label.id)) await this.relabel(repos, access, doer, issue, [], [label.id]);
    });
  }
}
