// Organization membership: member lists and checks, publicity of one's own membership, removal
// (Forgejo: routers/api/v1/org/member.go, models/organization/org_user.go).
import type { OrgMemberRepository } from '../db/org-member.repository.ts';
import type { User } from '../db/entities.ts';
import { AccessMode } from '../domain/access/modes.ts';
import { seesConcealedMembership } from '../domain/access/org-membership.ts';
import { ForbiddenError, NotFoundError, ValidationError } from '../domain/errors.ts';
import type { ListOptions, Page } from '../domain/page.ts';
import type { ServiceDeps } from './service-deps.ts';
import type { OwnerAccessService } from './owner-access.service.ts';
import { userNotFound } from '../domain/name-not-found.ts';

/** How the member check of rule 10 answers when it does not fail with 404. */
export type MemberCheck = { kind: 'member' } | { kind: 'redirect'; location: string };

export class OrgMemberService {
  private readonly members: OrgMemberRepository;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly ownerAccess: OwnerAccessService,
  ) {
    this.members = deps.repos.orgMembers;
  }

  private async userByName(name: string): Promise<User> {
    const user = await this.deps.repos.users.byLowerName(name.toLowerCase());
    if (!user) throw userNotFound(name);
    return user;
  }

  /** Rule 7: every member for members and admins, public members for everyone else. */
  async list(viewer: User | null, org: User, page: ListOptions): Promise<Page<User>> {
    // What the list holds, not whether it answers: a guard cannot decide it.
    const isMember = viewer !== null && (await this.ownerAccess.isOrgMember(org.id, viewer.id));
    const everyone = seesConcealedMembership(viewer, isMember);
    return this.members.listMembers(org.id, everyone, page);
  }

  /**
   * Public members only, for every caller. (Forgejo also shows concealed members to site admins here; a list
   * named public never does in Anvil.)
   */
  async listPublic(org: User, page: ListOptions): Promise<Page<User>> {
    return this.members.listMembers(org.id, false, page);
  }

  /** Rule 10: members and admins get the answer, the user themself a 404, anyone else the public check. */
  async check(viewer: User, org: User, username: string): Promise<MemberCheck> {
    const user = await this.userByName(username);
    // Which answer, not whether to answer: every signed-in caller gets one, so no guard decides it.
    if (seesConcealedMembership(viewer, await this.ownerAccess.isOrgMember(org.id, viewer.id))) {
      if (await this.ownerAccess.isOrgMember(org.id, user.id)) return { kind: 'member' };
      throw new NotFoundError();
    }
    if (viewer.id === user.id) throw new NotFoundError();
    return {
      kind: 'redirect',
      location: `/api/v1/orgs/${encodeURIComponent(org.name)}/public_members/${encodeURIComponent(user.name)}`,
    };
  }

  /** 404 unless the user is a public member. */
  async assertPublicMember(org: User, username: string): Promise<void> {
    const user = await this.userByName(username);
    const membership = await this.members.findMembership(org.id, user.id);
    if (membership?.isPublic !== true) throw new NotFoundError();
  }

  /** Rule 11: only the caller's own membership. */
  async setPublicity(viewer: User, org: User, username: string, isPublic: boolean): Promise<void> {
    const user = await this.userByName(username);
    // After the name lookup (an unknown name is 404 first), so not a guard's.
    if (user.id !== viewer.id)
      throw new ForbiddenError(isPublic ? 'Cannot publicize another member' : 'Cannot conceal another member');
    const count = await this.members.setPublicity(org.id, user.id, isPublic);
    // An admin who is not a member passes the membership gate but has no membership to change.
    if (count === 0) throw new NotFoundError(`${user.name} is not a member of ${org.name}`);
  }

  /** DELETE /orgs/{org}/members/{username}: out of every team and the organization; never the last owner. */
  async remove(org: User, username: string): Promise<void> {
    const user = await this.userByName(username);
    await this.removeFromOrg(org, user);
  }

  /** Removes a user from an organization's teams and membership; refuses to leave it without an owner. */
  async removeFromOrg(org: User, user: User): Promise<void> {
    await this.deps.transactions.run(async (repos) => {
      const members = repos.orgMembers;
      await members.lockMemberships(org.id);
      const teams = await members.teamsOf(org.id, user.id);
      if (teams.some((team) => team.accessMode >= AccessMode.owner)) {
        const owners = await members.countOwnerTeamMemberships(org.id);
        // Forgejo answers 500 here.
        if (owners <= 1)
          throw new ValidationError(`${user.name} is the last owner of ${org.name} and cannot be removed`);
      }
      await members.removeMember(
        org.id,
        user.id,
        teams.map((team) => team.teamId),
      );
    });
  }
}
