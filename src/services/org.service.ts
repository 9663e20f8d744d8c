// Organizations: lookup with the visibility rule, creation, listing, editing, deletion, and the org-level
// permission of a member (Forgejo: routers/api/v1/org/org.go, models/organization, services/org).
import { type Caller, isPublicOnly } from '../auth/caller.ts';
import type { OrgBlockRepository } from '../db/org-block.repository.ts';
import type { OrgMemberRepository } from '../db/org-member.repository.ts';
import type { OrgListFilter, OrgRepository } from '../db/org.repository.ts';
import type { User } from '../db/entities.ts';
import { AccessMode, Visibility } from '../domain/access/modes.ts';
import { canCreateOrganization, isSelfOrAdmin } from '../domain/access/account.ts';
import { isIndividual } from '../domain/access/owner-visibility.ts';
import { reachableOwnerVisibilities } from '../domain/access/token-reach.ts';
import { isValidEmail } from '../domain/email.ts';
import { ownerNameProblem } from '../domain/names.ts';
import { ForbiddenError, NameTakenError, NotFoundError, ValidationError } from '../domain/errors.ts';
import type { ListOptions, Page } from '../domain/page.ts';
import type { ServiceDeps } from './service-deps.ts';
import type { OwnerAccessService } from './owner-access.service.ts';
import type { OwnerStorageService } from './owner-storage.service.ts';
import { userNotFound } from '../domain/name-not-found.ts';

export const OWNER_TEAM_NAME = 'Owners';
const VISIBILITY_BY_NAME = {
  public: Visibility.public,
  limited: Visibility.limited,
  private: Visibility.private,
} as const;
export type VisibilityName = keyof typeof VISIBILITY_BY_NAME;

export interface OrgRole {
  readonly member: boolean;
  readonly owner: boolean;
}

export interface OrgFields {
  full_name?: string;
  email?: string;
  description?: string;
  website?: string;
  location?: string;
  visibility?: VisibilityName | '';
  repo_admin_change_team_access?: boolean;
}

export interface NewOrg extends OrgFields {
  username: string;
}

export interface OrgPermissions {
  can_read: boolean;
  can_write: boolean;
  is_admin: boolean;
  is_owner: boolean;
  can_create_repository: boolean;
}

/** Forgejo's binding limits on the organization forms, checked in this order. */
const FIELD_LIMITS: [keyof OrgFields, string, number][] = [
  ['full_name', 'FullName', 100],
  ['email', 'Email', 255],
  ['description', 'Description', 255],
  ['website', 'Website', 255],
  ['location', 'Location', 50],
];

function checkFields(fields: OrgFields): void {
  for (const [key, goName, max] of FIELD_LIMITS) {
    const value = fields[key];
    if (typeof value === 'string' && value.length > max) throw new ValidationError(`[${goName}]: MaxSize`);
  }
  if (fields.website && !/^https?:\/\/[^\s/]+/i.test(fields.website)) throw new ValidationError('[Website]: ValidUrl');
  if (fields.email && !isValidEmail(fields.email)) throw new ValidationError(`e-mail invalid [email: ${fields.email}]`);
}

export class OrgService {
  private readonly orgs: OrgRepository;
  private readonly members: OrgMemberRepository;
  private readonly blocks: OrgBlockRepository;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly ownerAccess: OwnerAccessService,
    private readonly ownerStorage: OwnerStorageService,
  ) {
    this.orgs = deps.repos.orgs;
    this.members = deps.repos.orgMembers;
    this.blocks = deps.repos.orgBlocks;
  }

  /** The caller's place in an organization: member (of any team, or listed) and owner (in an owner-level team). */
  async roleOf(orgId: number, userId: number): Promise<OrgRole> {
    const [listed, level] = await Promise.all([
      this.ownerAccess.isOrgMember(orgId, userId),
      this.accessLevel(orgId, userId),
    ]);
    const owner = level >= AccessMode.owner;
    return { member: listed || owner, owner };
  }

  /**
   * A user's level in an organization: the highest access mode of the teams they are in (the Owners team is
   * owner level), none when they are in no team. Team and permission code build on this one rule.
   */
  async accessLevel(orgId: number, userId: number): Promise<number> {
    const teams = await this.members.teamsOf(orgId, userId);
    return teams.reduce<number>((level, team) => Math.max(level, team.accessMode), AccessMode.none);
  }

  /** Owners, and members of a team that may create repositories. */
  async canCreateRepo(orgId: number, userId: number): Promise<boolean> {
    return this.members.isInRepoCreatingTeam(orgId, userId);
  }

  /** POST /orgs: the caller (whom reqOrgCreator let through) creates an organization and becomes its only owner. */
  async create(caller: Caller, input: NewOrg): Promise<User> {
    return this.createFor(caller.user, input);
  }

  /** POST /admin/users/{username}/orgs: an organization owned by that user (the form's email is not used). */
  async createForUser(owner: User, input: NewOrg): Promise<User> {
    if (!isIndividual(owner)) throw userNotFound(owner.name);
    // Forgejo answers 500 here; the target user's missing right is the caller's mistake.
    const regularCreationDisabled = this.deps.settings.admin.DISABLE_REGULAR_ORG_CREATION;
    if (!canCreateOrganization(owner, regularCreationDisabled))
      throw new ValidationError(`user ${owner.name} is not allowed to create organizations`);
    return this.createFor(owner, { ...input, email: undefined, repo_admin_change_team_access: undefined });
  }

  private async createFor(owner: User, input: NewOrg): Promise<User> {
    const name = input.username ?? '';
    if (name === '') throw new ValidationError('[UserName]: Required');
    const problem = ownerNameProblem(name);
    if (problem === 'length') throw new ValidationError('[UserName]: MaxSize');
    if (problem === 'characters') throw new ValidationError('[UserName]: invalid username');
    if (problem === 'reserved') throw new ValidationError(`name is reserved [name: ${name}]`);
    if (problem === 'pattern') throw new ValidationError(`name pattern is not allowed [pattern: ${name}]`);
    checkFields(input);
    try {
      return await this.deps.transactions.run(async (repos) =>
        repos.orgs.createWithOwnersTeam(
          {
            name,
            fullName: input.full_name ?? '',
            email: input.email ?? '',
            description: input.description ?? '',
            website: input.website ?? '',
            location: input.location ?? '',
            visibility: input.visibility ? VISIBILITY_BY_NAME[input.visibility] : Visibility.public,
            repoAdminChangeTeamAccess: input.repo_admin_change_team_access ?? false,
          },
          {
            name: OWNER_TEAM_NAME,
            ownerId: owner.id,
            ownerMembershipPublic: this.deps.settings.service.DEFAULT_ORG_MEMBER_VISIBLE,
          },
        ),
      );
    } catch (error) {
      if (error instanceof NameTakenError) throw new ValidationError(`user already exists [name: ${name}]`);
      throw error;
    }
  }

  /** GET /orgs: public ones; limited too for signed-in callers (not public-only tokens); all for admins. */
  async listVisible(caller: Caller | null, page: ListOptions): Promise<Page<User>> {
    const viewer = caller?.user ?? null;
    // A filter per organization of the list, so not a guard's.
    const visibilities: number[] = [Visibility.public];
    if (viewer && !isPublicOnly(caller)) {
      visibilities.push(Visibility.limited);
      if (viewer.isAdmin) visibilities.push(Visibility.private);
    }
    const filter: OrgListFilter = { visibilities };
    if (viewer?.isRestricted && !viewer.isAdmin) filter.memberId = viewer.id;
    return this.orgs.list(filter, page);
  }

  /** GET /admin/orgs: every organization. */
  async listAll(page: ListOptions): Promise<Page<User>> {
    const { orgs, total } = await this.deps.repos.orgs.listAllByName(page.limit, page.skip);
    return { items: orgs, total };
  }

  /**
   * The organizations of a user: all of them for the user themself and admins, else public ones with public
   * membership. A public-only token sees public organizations only.
   */
  async listOfUser(caller: Caller | null, user: User, page: ListOptions): Promise<Page<User>> {
    const viewer = caller?.user ?? null;
    // A filter per organization of the list, so not a guard's.
    const everything = viewer !== null && isSelfOrAdmin(viewer, user.id);
    const filter: OrgListFilter = everything
      ? { memberId: user.id }
      : { visibilities: [Visibility.public], memberId: user.id, publicMembershipOnly: true };
    const reachable = reachableOwnerVisibilities(isPublicOnly(caller));
    if (reachable) filter.visibilities = reachable;
    return this.orgs.list(filter, page);
  }

  /** PATCH /orgs/{org} (rule 3): the four text fields are always written; the rest only when sent. */
  async edit(org: User, input: OrgFields): Promise<User> {
    checkFields(input);
    return this.orgs.updateProfile(org.id, {
      fullName: input.full_name ?? '',
      description: input.description ?? '',
      website: input.website ?? '',
      location: input.location ?? '',
      ...(input.email !== undefined ? { email: input.email } : {}),
      ...(input.visibility ? { visibility: VISIBILITY_BY_NAME[input.visibility] } : {}),
      ...(input.repo_admin_change_team_access !== undefined
        ? { repoAdminChangeTeamAccess: input.repo_admin_change_team_access }
        : {}),
    });
  }

  /** DELETE /orgs/{org}: refused while the organization still owns repositories or packages. */
  async delete(org: User): Promise<void> {
    await this.deps.transactions.run(async (repos) => {
      // Checked inside the transaction with the row held: the repositories would otherwise cascade with it,
      // leaving their folders.
      await repos.ownerPurge.lockOwner(org.id);
      const { repositories, packages } = await repos.ownerPurge.countOwnedData(org.id);
      // Forgejo answers 500 for both.
      if (repositories > 0)
        throw new ValidationError(
          `organization ${org.name} still owns ${repositories} repositories; delete or transfer them first`,
        );
      if (packages > 0)
        throw new ValidationError(`organization ${org.name} still owns ${packages} packages; delete them first`);
      await repos.orgs.deleteWithOwnRows(org.id);
    });
    // Whatever is left in its folder (unadopted repositories) would otherwise show up under a later owner of the name.
    await this.ownerStorage.ownersDeleted([org]);
  }

  /**
   * GET /users/{username}/orgs/{org}/permissions (rule 6). Whether the *user* can see the organization decides
   * the 404 (the caller's own sight of both was decided by the route's guards).
   */
  async permissionsOf(user: User, org: User): Promise<OrgPermissions> {
    if (!(await this.ownerAccess.canSee(user, org))) throw new NotFoundError('HasOrgOrUserVisible');
    const level = await this.accessLevel(org.id, user.id);
    return {
      can_read: level > AccessMode.none,
      can_write: level > AccessMode.read,
      is_admin: level > AccessMode.write,
      is_owner: level > AccessMode.admin,
      can_create_repository: await this.canCreateRepo(org.id, user.id),
    };
  }

  /** Team and membership changes call this: a user the organization blocked cannot join it (403, as Forgejo). */
  async assertNotBlocked(orgId: number, userId: number): Promise<void> {
    if (await this.blocks.isBlocked(orgId, userId)) throw new ForbiddenError('the user is blocked by the organization');
  }
}
