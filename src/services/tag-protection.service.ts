// Tag protection rules (Forgejo: routers/api/v1/repo/tag.go, the *TagProtection handlers) and their enforcement:
// on the tags API here, on git pushes through the protection hook's tag lines (infra/git/protection-hook.ts).
import type { User } from '../db/entities.ts';
import type { ProtectedTagRow } from '../db/protected-tag.repository.ts';
import type { RepoWithOwner } from '../db/repository-details.ts';
import { isOrganization } from '../domain/access/owner-visibility.ts';
import { BadRequestError, ForbiddenError, NotFoundError, ValidationError } from '../domain/errors.ts';
import {
  compileTagPattern,
  isRegexPattern,
  mayControlTag,
  ruleAllows,
  type TagRule,
} from '../domain/tag-protection.ts';
import type { ProtectionLine } from '../infra/git/protection-hook.ts';
import { namesOf, teamIdsByNames, userIdsByNames } from './allowlist-names.ts';
import type { ServiceDeps } from './service-deps.ts';

export interface TagProtectionInput {
  namePattern?: string;
  userNames?: string[];
  teamNames?: string[];
}

export interface TagProtectionView {
  row: ProtectedTagRow;
  userNames: string[];
  teamNames: string[];
}

function idsOf(text: string): number[] {
  try {
    const ids: unknown = JSON.parse(text);
    return Array.isArray(ids) ? ids.filter((id): id is number => typeof id === 'number') : [];
  } catch {
    return [];
  }
}

function ruleOf(row: ProtectedTagRow): TagRule {
  return { namePattern: row.namePattern, userIds: idsOf(row.allowlistUserIds), teamIds: idsOf(row.allowlistTeamIds) };
}

export class TagProtectionService {
  constructor(private readonly deps: ServiceDeps) {}

  async list(repo: RepoWithOwner): Promise<TagProtectionView[]> {
    return this.view(await this.deps.repos.protectedTags.list(repo.id));
  }

  async get(repo: RepoWithOwner, id: number): Promise<TagProtectionView> {
    return (await this.view([await this.find(repo, id)]))[0];
  }

  async create(repo: RepoWithOwner, input: TagProtectionInput): Promise<TagProtectionView> {
    const namePattern = input.namePattern?.trim() ?? '';
    if (!namePattern) throw new BadRequestError('name_pattern are empty');
    if (!input.userNames?.length && !input.teamNames?.length)
      throw new BadRequestError('both whitelist_usernames and whitelist_teams are empty');
    this.assertValidPattern(namePattern);
    const existing = await this.deps.repos.protectedTags.list(repo.id);
    if (existing.some((row) => row.namePattern === namePattern))
      throw new ForbiddenError('Tag protection already exist');
    const userIds = await userIdsByNames(this.deps.repos, input.userNames ?? []);
    const teamIds = await this.teamIds(repo, input.teamNames ?? []);
    const row = await this.deps.repos.protectedTags.create(repo.id, {
      namePattern,
      allowlistUserIds: JSON.stringify(userIds),
      allowlistTeamIds: JSON.stringify(teamIds),
    });
    return (await this.view([row]))[0];
  }

  /** Only the fields given change (Forgejo: EditTagProtection). */
  async edit(repo: RepoWithOwner, id: number, input: TagProtectionInput): Promise<TagProtectionView> {
    const row = await this.find(repo, id);
    const namePattern = input.namePattern?.trim() || row.namePattern;
    this.assertValidPattern(namePattern);
    const userIds =
      input.userNames === undefined
        ? row.allowlistUserIds
        : JSON.stringify(await userIdsByNames(this.deps.repos, input.userNames));
    const teamIds =
      input.teamNames === undefined ? row.allowlistTeamIds : JSON.stringify(await this.teamIds(repo, input.teamNames));
    const updated = await this.deps.repos.protectedTags.update(row.id, {
      namePattern,
      allowlistUserIds: userIds,
      allowlistTeamIds: teamIds,
    });
    return (await this.view([updated]))[0];
  }

  async delete(repo: RepoWithOwner, id: number): Promise<void> {
    await this.deps.repos.protectedTags.delete((await this.find(repo, id)).id);
  }

  /** For the tags API: refuses creating or deleting a tag the doer may not control (Forgejo: ErrProtectedTagName). */
  async assertMayControl(doer: User, repo: RepoWithOwner, tag: string, verb: 'create' | 'delete'): Promise<void> {
    const rows = await this.deps.repos.protectedTags.list(repo.id);
    if (rows.length === 0) return;
    if (!mayControlTag(rows.map(ruleOf), tag, doer.id, await this.teamIdsOf(doer, repo)))
      throw new ValidationError(`user not allowed to ${verb} protected tag`);
  }

  /** For a git push: each rule with whether this pusher may control the tags it matches. */
  async pushLines(pusher: User, repo: RepoWithOwner): Promise<ProtectionLine[]> {
    const rows = await this.deps.repos.protectedTags.list(repo.id);
    if (rows.length === 0) return [];
    const teamIds = await this.teamIdsOf(pusher, repo);
    return rows.map((row) => {
      const regex = isRegexPattern(row.namePattern);
      return {
        tag: regex ? 'regex' : 'glob',
        glob: !regex,
        name: regex ? row.namePattern.slice(1, -1) : row.namePattern,
        mayPush: ruleAllows(ruleOf(row), pusher.id, teamIds),
      };
    });
  }

  private assertValidPattern(pattern: string): void {
    if (!compileTagPattern(pattern)) throw new ValidationError(`invalid name pattern: ${pattern}`);
  }

  /** Teams only mean something for an organization's repository; Forgejo ignores them elsewhere. */
  private teamIds(repo: RepoWithOwner, names: readonly string[]): Promise<number[]> {
    return isOrganization(repo.owner) ? teamIdsByNames(this.deps.repos, repo, names) : Promise.resolve([]);
  }

  private async teamIdsOf(user: User, repo: RepoWithOwner): Promise<number[]> {
    return isOrganization(repo.owner) ? this.deps.repos.teams.teamIdsOfMember(repo.ownerId, user.id) : [];
  }

  private async find(repo: RepoWithOwner, id: number): Promise<ProtectedTagRow> {
    const row = await this.deps.repos.protectedTags.find(repo.id, id);
    if (!row) throw new NotFoundError(`tag protection does not exist [id: ${id}]`);
    return row;
  }

  private async view(rows: ProtectedTagRow[]): Promise<TagProtectionView[]> {
    const rules = rows.map(ruleOf);
    const { userNames, teamNames } = await namesOf(
      this.deps.repos,
      rules.flatMap((rule) => rule.userIds),
      rules.flatMap((rule) => rule.teamIds),
    );
    return rows.map((row, i) => ({
      row,
      userNames: rules[i].userIds.flatMap((id) => userNames.get(id) ?? []),
      teamNames: rules[i].teamIds.flatMap((id) => teamNames.get(id) ?? []),
    }));
  }
}
