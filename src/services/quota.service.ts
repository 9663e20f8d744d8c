// Quota groups and rules, what an owner uses, and enforcement (Forgejo: routers/api/v1/admin/quota*.go,
// routers/api/v1/shared/quota.go, models/quota/*). The decision itself is src/domain/quota.ts.
import type { UsedPackage } from '../db/package-usage.repository.ts';
import type { User } from '../db/entities.ts';
import type { UsedArtifact, UsedAttachment } from '../db/quota-usage.repository.ts';
import type { Repositories } from '../db/repositories.ts';
import type { ListOptions, Page } from '../domain/page.ts';
import {
  headroom,
  isQuotaSubject,
  isWithinQuota,
  NO_USAGE,
  type QuotaGroup,
  type QuotaInfo,
  type QuotaLeaf,
  type QuotaRule,
  type QuotaSubject,
  type QuotaUsage,
  withLeafBytes,
  withPendingBytes,
} from '../domain/quota.ts';
import { ConflictError, NameTakenError, NotFoundError, QuotaExceededError, ValidationError } from '../domain/errors.ts';
import { QuotaHold, type Reserved } from './quota-hold.ts';
import type { ServiceDeps } from './service-deps.ts';

export interface NewQuotaRule {
  name?: string;
  limit?: number;
  subjects?: string[];
}

export interface NewQuotaGroup {
  name?: string;
  rules?: NewQuotaRule[];
}

export interface QuotaRuleChanges {
  limit?: number;
  subjects?: string[];
}

/** Whose quota a write counts against. */
export type QuotaOwner = Pick<User, 'id' | 'name'>;

function parseSubjects(subjects: readonly string[] | undefined): QuotaSubject[] {
  return (subjects ?? []).map((subject) => {
    if (!isQuotaSubject(subject)) throw new ValidationError(`unrecognized quota limit subject: [subject: ${subject}]`);
    return subject;
  });
}

function requireName(name: string | undefined, field: string): string {
  if (!name || name.trim() === '') throw new ValidationError(`[${field}]: Required`);
  return name;
}

/** A reservation counts this long past its last growth: a process that died while writing stops holding then. */
const RESERVATION_LEASE_MS = 15 * 60_000;

const groupNotFound = (name: string) => new NotFoundError(`quota group does not exist [name: ${name}]`);
const ruleNotFound = (name: string) => new NotFoundError(`quota rule does not exist [name: ${name}]`);

export class QuotaService {
  constructor(private readonly deps: ServiceDeps) {}

  private get quota() {
    return this.deps.repos.quota;
  }

  // ---- rules ----

  listRules(): Promise<QuotaRule[]> {
    return this.quota.listRules();
  }

  async getRule(name: string): Promise<QuotaRule> {
    const rule = await this.quota.findRule(name);
    if (!rule) throw ruleNotFound(name);
    return rule;
  }

  /** Rule 2: the limit is required; subjects must be known; the name must be free. */
  async createRule(input: NewQuotaRule): Promise<QuotaRule> {
    const name = requireName(input.name, 'Name');
    if (input.limit === undefined || input.limit === null) throw new ValidationError('[Limit]: Required');
    const subjects = parseSubjects(input.subjects);
    return this.conflictOnDuplicate(`rule already exists [name: ${name}]`, () =>
      this.deps.transactions.run(async (repos) => {
        if (await repos.quota.findRule(name)) throw new ConflictError(`rule already exists [name: ${name}]`);
        return repos.quota.createRule({ name, limit: input.limit!, subjects });
      }),
    );
  }

  /** Rule 3: omitted fields keep their value. */
  async editRule(name: string, changes: QuotaRuleChanges): Promise<QuotaRule> {
    await this.getRule(name);
    const subjects =
      changes.subjects === undefined || changes.subjects === null ? undefined : parseSubjects(changes.subjects);
    return this.quota.updateRule(name, { limit: changes.limit ?? undefined, subjects });
  }

  async deleteRule(name: string): Promise<void> {
    const deleted = await this.deps.transactions.run((repos) => repos.quota.deleteRule(name));
    if (!deleted) throw ruleNotFound(name);
  }

  // ---- groups ----

  listGroups(): Promise<QuotaGroup[]> {
    return this.quota.listGroups();
  }

  async getGroup(name: string): Promise<QuotaGroup> {
    const group = await this.quota.findGroup(name);
    if (!group) throw groupNotFound(name);
    return group;
  }

  /**
   * Rule 1: the group and its rules in one transaction. A listed rule that does not exist is created (limit 0 when
   * absent); one that exists is linked as it is, its listed definition ignored.
   */
  async createGroup(input: NewQuotaGroup): Promise<QuotaGroup> {
    const name = requireName(input.name, 'Name');
    const rules = (input.rules ?? []).map((rule) => ({
      ...rule,
      name: requireName(rule.name, 'Rules.Name'),
      subjects: parseSubjects(rule.subjects),
    }));
    return this.conflictOnDuplicate(`group already exists [name: ${name}]`, () =>
      this.deps.transactions.run(async (repos) => {
        if (await repos.quota.findGroup(name)) throw new ConflictError(`group already exists [name: ${name}]`);
        await repos.quota.createGroup(name);
        for (const rule of rules) {
          if (!(await repos.quota.findRule(rule.name)))
            await repos.quota.createRule({ name: rule.name, limit: rule.limit ?? 0, subjects: rule.subjects });
          if (await repos.quota.hasRule(name, rule.name))
            throw new ConflictError(`rule already in group [group: ${name}, rule: ${rule.name}]`);
          await repos.quota.addRule(name, rule.name);
        }
        return (await repos.quota.findGroup(name))!;
      }),
    );
  }

  async deleteGroup(name: string): Promise<void> {
    const deleted = await this.deps.transactions.run((repos) => repos.quota.deleteGroup(name));
    if (!deleted) throw groupNotFound(name);
  }

  /** Rule 5: the rule must exist (422) and not be in the group yet (409). */
  async addRuleToGroup(groupName: string, ruleName: string): Promise<void> {
    await this.getGroup(groupName);
    if (!(await this.quota.findRule(ruleName))) throw new ValidationError(`rule not found [name: ${ruleName}]`);
    const conflict = `rule already in group [group: ${groupName}, rule: ${ruleName}]`;
    if (await this.quota.hasRule(groupName, ruleName)) throw new ConflictError(conflict);
    await this.conflictOnDuplicate(conflict, () => this.quota.addRule(groupName, ruleName));
  }

  async removeRuleFromGroup(groupName: string, ruleName: string): Promise<void> {
    await this.getGroup(groupName);
    await this.getRule(ruleName);
    if (!(await this.quota.removeRule(groupName, ruleName)))
      throw new NotFoundError(`rule not in group [group: ${groupName}, rule: ${ruleName}]`);
  }

  async listGroupUsers(groupName: string): Promise<User[]> {
    await this.getGroup(groupName);
    return this.quota.listUsers(groupName);
  }

  /** Rule 4: a member already answers 409. */
  async addUserToGroup(groupName: string, user: User): Promise<void> {
    await this.getGroup(groupName);
    const conflict = `user already in group [group: ${groupName}, userID: ${user.id}]`;
    if (await this.quota.hasUser(groupName, user.id)) throw new ConflictError(conflict);
    await this.conflictOnDuplicate(conflict, () => this.quota.addUser(groupName, user.id));
  }

  async removeUserFromGroup(groupName: string, user: User): Promise<void> {
    await this.getGroup(groupName);
    if (!(await this.quota.removeUser(groupName, user.id)))
      throw new NotFoundError(`user not in group [group: ${groupName}, userID: ${user.id}]`);
  }

  /** Rule 6: the user's groups become exactly the listed ones; an unknown group answers 422 and changes nothing. */
  async setUserGroups(user: User, groupNames: readonly string[] | undefined): Promise<void> {
    await this.deps.transactions.run(async (repos) => {
      await repos.quota.removeUserFromAll(user.id);
      for (const name of new Set(groupNames ?? [])) {
        if (!(await repos.quota.findGroup(name))) throw new ValidationError(`group not found [group: ${name}]`);
        await repos.quota.addUser(name, user.id);
      }
    });
  }

  // ---- what an owner uses ----

  /** The owner's groups; without any, those of [quota] DEFAULT_GROUPS that exist (Forgejo: GetGroupsForUser). */
  private async groupsOf(repos: Repositories, owner: QuotaOwner): Promise<QuotaGroup[]> {
    const groups = await repos.quota.groupsOf(owner.id);
    return groups.length > 0 ? groups : repos.quota.groupsNamed(this.deps.settings.quota.DEFAULT_GROUPS);
  }

  /** What the owner stores. */
  usage(owner: QuotaOwner): Promise<QuotaUsage> {
    return this.storedUsage(this.deps.repos, owner);
  }

  private async storedUsage(repos: Repositories, owner: QuotaOwner): Promise<QuotaUsage> {
    const [repositories, attachments, artifacts, packages] = await Promise.all([
      repos.quotaUsage.repositories(owner.id),
      repos.quotaUsage.attachments(owner.id),
      repos.quotaUsage.artifacts(owner.id),
      repos.packageUsage.totalBytes(owner.id),
    ]);
    return {
      ...repositories,
      attachmentsIssues: attachments.issues,
      attachmentsReleases: attachments.releases,
      artifacts,
      packages,
    };
  }

  /** What counts against the owner: what it stores and what its writes in progress hold (but `exceptId`). */
  private async countedUsage(repos: Repositories, owner: QuotaOwner, now: Date, exceptId: number | null = null) {
    const [stored, held] = await Promise.all([
      this.storedUsage(repos, owner),
      repos.quotaReservations.live(owner.id, now, exceptId),
    ]);
    return held.reduce((used, reservation) => withLeafBytes(used, reservation.leaf, reservation.bytes), stored);
  }

  async info(owner: QuotaOwner): Promise<QuotaInfo> {
    const [used, groups] = await Promise.all([this.usage(owner), this.groupsOf(this.deps.repos, owner)]);
    return { used, groups };
  }

  /** `GET …/quota/check?subject=`: an unknown subject answers 422. */
  async check(owner: QuotaOwner, subject: string | undefined): Promise<boolean> {
    const trimmed = (subject ?? '').trim();
    if (!isQuotaSubject(trimmed)) throw new ValidationError(`unrecognized quota limit subject: [subject: ${trimmed}]`);
    return this.isWithin(owner, trimmed);
  }

  /**
   * Whether the owner may still write to `subject`; always with quota off. `addedBytes` (on a leaf subject) counts
   * a write about to happen; 0 compares what is stored, as Forgejo does.
   */
  async isWithin(owner: QuotaOwner, subject: QuotaSubject, addedBytes = 0): Promise<boolean> {
    if (!this.deps.settings.quota.ENABLED) return true;
    const { repos } = this.deps;
    const now = new Date();
    const [used, groups] = await Promise.all([this.countedUsage(repos, owner, now), this.groupsOf(repos, owner)]);
    return isWithinQuota(
      groups,
      withPendingBytes(used, subject, addedBytes),
      subject,
      this.deps.settings['quota.default'].TOTAL,
    );
  }

  /** Enforcement: QuotaExceededError (413 with Forgejo's body) when the owner may not write to `subject`. */
  async assertWithin(owner: QuotaOwner, subject: QuotaSubject, addedBytes = 0): Promise<void> {
    if (!(await this.isWithin(owner, subject, addedBytes))) throw new QuotaExceededError(owner.id, owner.name);
  }

  /**
   * A hold on the owner's quota for a write to `subject` whose bytes count on `leaf`, stopping the write once it
   * would take the owner past a limit; `announcedBytes` (a Content-Length) are reserved at once. Quota off: a
   * hold that admits everything.
   */
  async hold(owner: QuotaOwner, subject: QuotaSubject, leaf: QuotaLeaf, announcedBytes = 0): Promise<QuotaHold> {
    if (!this.deps.settings.quota.ENABLED) return new QuotaHold(null);
    // No rule limits this kind of write for the owner (the usual case): no reservation, and so no transaction per
    // chunk, which on SQLite would keep its one write lock busy under many writes at once.
    const groups = await this.groupsOf(this.deps.repos, owner);
    if (headroom(groups, NO_USAGE, subject, leaf, this.deps.settings['quota.default'].TOTAL) === Infinity) {
      return new QuotaHold(null);
    }
    const hold = new QuotaHold({
      reserve: (id, needed, wanted) => this.reserve(owner, subject, leaf, id, needed, wanted),
      end: async (repos, id) => {
        await repos.quotaReservations.lockOwner(owner.id, new Date());
        await repos.quotaReservations.delete(id);
      },
      release: (id) => this.deps.repos.quotaReservations.delete(id),
    });
    await hold.reserveUpFront(announcedBytes);
    return hold;
  }

  /** One growth of a reservation, decided while the owner is held: `needed` must fit (413), up to `wanted` is taken. */
  private reserve(
    owner: QuotaOwner,
    subject: QuotaSubject,
    leaf: QuotaLeaf,
    id: number | null,
    needed: number,
    wanted: number,
  ): Promise<Reserved> {
    return this.deps.transactions.run(async (repos) => {
      const now = new Date();
      await repos.quotaReservations.lockOwner(owner.id, now);
      const [used, groups] = await Promise.all([this.countedUsage(repos, owner, now, id), this.groupsOf(repos, owner)]);
      const room = headroom(groups, used, subject, leaf, this.deps.settings['quota.default'].TOTAL);
      if (needed > room) throw new QuotaExceededError(owner.id, owner.name);
      // Ahead of what is needed, at most an eighth of the room left beside it.
      const granted = Math.min(wanted, needed + Math.floor((room - needed) / 8));
      const expiresAt = new Date(now.getTime() + RESERVATION_LEASE_MS);
      if (id !== null && (await repos.quotaReservations.update(id, granted, expiresAt))) {
        return { reservationId: id, granted };
      }
      return { reservationId: await repos.quotaReservations.create(owner.id, leaf, granted, expiresAt), granted };
    });
  }

  listAttachments(owner: QuotaOwner, page: ListOptions): Promise<Page<UsedAttachment>> {
    return this.deps.repos.quotaUsage.listAttachments(owner.id, page);
  }

  listArtifacts(owner: QuotaOwner, page: ListOptions): Promise<Page<UsedArtifact>> {
    return this.deps.repos.quotaUsage.listArtifacts(owner.id, page);
  }

  listPackages(owner: QuotaOwner, page: ListOptions): Promise<Page<UsedPackage>> {
    return this.deps.repos.packageUsage.list(owner.id, page);
  }

  /** Two requests racing for one name: the loser gets the same 409 as a later request. */
  private async conflictOnDuplicate<T>(message: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof NameTakenError) throw new ConflictError(message);
      throw error;
    }
  }
}
