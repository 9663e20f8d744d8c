// An issue's deadline (Forgejo: routers/api/v1/repo/issue.go UpdateIssueDeadline).
import type { User } from '../db/entities.ts';
import type { RepoWithPermission } from '../db/repository-details.ts';
import { canWriteIssue } from '../domain/access/content-visibility.ts';
import { ForbiddenError, ValidationError } from '../domain/errors.ts';
import type { IssueService } from './issue.service.ts';
import type { ServiceDeps } from './service-deps.ts';

export class IssueDeadlineService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly issues: IssueService,
  ) {}

  /** The end of the given day (UTC here, Forgejo's server zone there); Go's zero time removes the deadline. */
  async set(access: RepoWithPermission, index: number, doer: User, dueDate: string): Promise<Date | null> {
    const issue = await this.issues.findReadable(access, index, doer);
    // Per issue, so not a guard's: pull requests and issues are separate units.
    if (!canWriteIssue(access.permission, issue.isPull, doer.isAdmin)) throw new ForbiddenError('Not repo writer');
    const date = new Date(dueDate);
    if (Number.isNaN(date.getTime())) throw new ValidationError(`invalid due_date: ${dueDate}`);
    const deadline =
      date.getUTCFullYear() <= 1
        ? null
        : new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate(), 23, 59, 59));
    await this.deps.repos.issues.update(issue.id, { deadlineAt: deadline, updatedAt: new Date() });
    return deadline;
  }
}
