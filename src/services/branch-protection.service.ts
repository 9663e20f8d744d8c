// Branch protection rules (Forgejo: routers/api/v1/repo/branch_protection.go, services/repository/branch.go) and
// their enforcement: on the contents API's writes here, on git pushes through the pre-receive hook whose policy
// `pushPolicy` computes (infra/git/protection-hook.ts).
import type { User } from '../db/entities.ts';
import type { ProtectedBranchRow } from '../db/protected-branch.repository.ts';
import type { RepoWithOwner } from '../db/repository-details.ts';
import { isOrganization } from '../domain/access/owner-visibility.ts';
import { isRepoAdmin } from '../domain/access/repo-permission.ts';
import {
  isGlobRule,
  parseProtectionOptions,
  type ProtectionOptions,
  type ProtectionRule,
  type Pusher,
  protectedPushRefusal,
  ruleForBranch,
} from '../domain/branch-protection.ts';
import { ForbiddenError, NotFoundError, ValidationError } from '../domain/errors.ts';
import { compileGlob } from '../domain/glob.ts';
import type { ProtectionLine } from '../infra/git/protection-hook.ts';
import { namesOf, teamIdsByNames, userIdsByNames } from './allowlist-names.ts';
import type { RepoPermissionService } from './repo-permission.service.ts';
import type { ServiceDeps } from './service-deps.ts';

/** The options as the API names them: users and teams by name. */
export type ProtectionInput = Partial<
  Omit<
    ProtectionOptions,
    | 'pushWhitelistUserIds'
    | 'pushWhitelistTeamIds'
    | 'mergeWhitelistUserIds'
    | 'mergeWhitelistTeamIds'
    | 'approvalsWhitelistUserIds'
    | 'approvalsWhitelistTeamIds'
  >
> & {
  ruleName?: string;
  pushWhitelistUsernames?: string[];
  pushWhitelistTeams?: string[];
  mergeWhitelistUsernames?: string[];
  mergeWhitelistTeams?: string[];
  approvalsWhitelistUsernames?: string[];
  approvalsWhitelistTeams?: string[];
};

export interface ProtectionView {
  row: ProtectedBranchRow;
  options: ProtectionOptions;
  userNames: Map<number, string>;
  teamNames: Map<number, string>;
}

const LISTS = [
  ['pushWhitelistUsernames', 'pushWhitelistTeams', 'pushWhitelistUserIds', 'pushWhitelistTeamIds'],
  ['mergeWhitelistUsernames', 'mergeWhitelistTeams', 'mergeWhitelistUserIds', 'mergeWhitelistTeamIds'],
  ['approvalsWhitelistUsernames', 'approvalsWhitelistTeams', 'approvalsWhitelistUserIds', 'approvalsWhitelistTeamIds'],
] as const;

export class BranchProtectionService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly permissions: RepoPermissionService,
  ) {}

  async list(repo: RepoWithOwner): Promise<ProtectionView[]> {
    return this.view(await this.deps.repos.protectedBranches.list(repo.id));
  }

  async get(repo: RepoWithOwner, name: string): Promise<ProtectionView> {
    const row = await this.deps.repos.protectedBranches.find(repo.id, name);
    if (!row) throw new NotFoundError(`branch protection does not exist [name: ${name}]`);
    return (await this.view([row]))[0];
  }

  async create(repo: RepoWithOwner, input: ProtectionInput): Promise<ProtectionView> {
    const ruleName = input.ruleName?.trim() ?? '';
    if (!ruleName) throw new ValidationError('rule_name is required');
    if (isGlobRule(ruleName) && !compileGlob(ruleName)) throw new ValidationError(`invalid rule name: ${ruleName}`);
    if (await this.deps.repos.protectedBranches.find(repo.id, ruleName))
      throw new ForbiddenError('Branch protection already exist');
    const options = await this.resolve(repo, parseProtectionOptions('{}'), input);
    const row = await this.deps.repos.protectedBranches.create(repo.id, ruleName, JSON.stringify(options));
    return (await this.view([row]))[0];
  }

  async edit(repo: RepoWithOwner, name: string, input: ProtectionInput): Promise<ProtectionView> {
    const current = await this.get(repo, name);
    const options = await this.resolve(repo, current.options, input);
    const row = await this.deps.repos.protectedBranches.update(current.row.id, JSON.stringify(options));
    return (await this.view([row]))[0];
  }

  async delete(repo: RepoWithOwner, name: string): Promise<void> {
    const current = await this.get(repo, name);
    await this.deps.repos.protectedBranches.delete(current.row.id);
  }

  /** For the contents API: refuses a direct write to a protected branch the doer may not push to. */
  async assertMayPush(doer: User, repo: RepoWithOwner, branch: string): Promise<void> {
    const rules = await this.rules(repo);
    const rule = ruleForBranch(rules, branch);
    if (!rule) return;
    const refusal = protectedPushRefusal(branch, rule.options, 'update', await this.pusher(doer, repo));
    if (refusal) throw new ForbiddenError(refusal);
  }

  /** For a git push: the rules with whether this pusher may push under each; null when the repository has none. */
  async pushPolicy(pusher: User, repo: RepoWithOwner): Promise<ProtectionLine[] | null> {
    const rules = await this.rules(repo);
    if (rules.length === 0) return null;
    const facts = await this.pusher(pusher, repo);
    return rules.map((rule) => ({
      glob: isGlobRule(rule.ruleName),
      name: rule.ruleName,
      mayPush: protectedPushRefusal(rule.ruleName, rule.options, 'update', facts) === null,
    }));
  }

  /**
   * For each branch, the rule protecting it and whether `viewer` may push to it (the branch list's `protected`,
   * `user_can_push`); `canWrite` is whether the viewer may write code at all.
   */
  async forBranches(
    viewer: User | null,
    repo: RepoWithOwner,
    names: readonly string[],
    canWrite: boolean,
  ): Promise<Map<string, { rule: ProtectionRule | null; canPush: boolean }>> {
    const rules = await this.rules(repo);
    const facts = viewer && canWrite && rules.length > 0 ? await this.pusher(viewer, repo) : null;
    return new Map(
      names.map((name) => {
        const rule = ruleForBranch(rules, name);
        const canPush =
          canWrite && (!rule || (facts !== null && !protectedPushRefusal(name, rule.options, 'update', facts)));
        return [name, { rule, canPush }];
      }),
    );
  }

  /** The rule protecting `branch` (its required approvals and status checks, for merges), or null. */
  async ruleFor(repo: RepoWithOwner, branch: string): Promise<ProtectionOptions | null> {
    return ruleForBranch(await this.rules(repo), branch)?.options ?? null;
  }

  private async rules(repo: RepoWithOwner) {
    const rows = await this.deps.repos.protectedBranches.list(repo.id);
    return rows.map((row) => ({ ruleName: row.ruleName, options: parseProtectionOptions(row.options) }));
  }

  private async pusher(user: User, repo: RepoWithOwner): Promise<Pusher> {
    const [permission, teamIds] = await Promise.all([
      this.permissions.forRepo(user, repo),
      isOrganization(repo.owner) ? this.deps.repos.teams.teamIdsOfMember(repo.ownerId, user.id) : Promise.resolve([]),
    ]);
    return { userId: user.id, teamIds, isRepoAdmin: user.isAdmin || isRepoAdmin(permission) };
  }

  /** Applies the given fields over `base`, names turned into ids; an unknown user or team is 422. */
  private async resolve(
    repo: RepoWithOwner,
    base: ProtectionOptions,
    input: ProtectionInput,
  ): Promise<ProtectionOptions> {
    const options: ProtectionOptions = { ...base };
    for (const key of Object.keys(base) as (keyof ProtectionOptions)[]) {
      const value = (input as Record<string, unknown>)[key];
      if (value !== undefined && !key.endsWith('Ids')) (options as unknown as Record<string, unknown>)[key] = value;
    }
    if (options.requiredApprovals < 0) throw new ValidationError('required_approvals must not be negative');
    for (const [userField, teamField, userIds, teamIds] of LISTS) {
      const names = input[userField];
      if (names !== undefined) options[userIds] = await userIdsByNames(this.deps.repos, names);
      const teams = input[teamField];
      if (teams !== undefined) options[teamIds] = await teamIdsByNames(this.deps.repos, repo, teams);
    }
    return options;
  }

  private async view(rows: ProtectedBranchRow[]): Promise<ProtectionView[]> {
    const parsed = rows.map((row) => ({ row, options: parseProtectionOptions(row.options) }));
    const userIds = new Set<number>();
    const teamIds = new Set<number>();
    for (const { options } of parsed) {
      for (const [, , users, teams] of LISTS) {
        options[users].forEach((id) => userIds.add(id));
        options[teams].forEach((id) => teamIds.add(id));
      }
    }
    const { userNames, teamNames } = await namesOf(this.deps.repos, [...userIds], [...teamIds]);
    return parsed.map((entry) => ({ ...entry, userNames, teamNames }));
  }
}
