// Whether a viewer may see a user or an organization: membership from the database, then the pure rule of
// src/domain/access/owner-visibility.ts.
import type { OrgMemberRepository } from '../db/org-member.repository.ts';
import type { User } from '../db/entities.ts';
import { canSeeOwner, visibilityDependsOnMembership } from '../domain/access/owner-visibility.ts';
import type { ServiceDeps } from './service-deps.ts';

export class OwnerAccessService {
  private readonly memberships: OrgMemberRepository;

  constructor(deps: ServiceDeps) {
    this.memberships = deps.repos.orgMembers;
  }

  isOrgMember(orgId: number, userId: number): Promise<boolean> {
    return this.memberships.exists(orgId, userId);
  }

  async canSee(viewer: User | null, owner: User): Promise<boolean> {
    const isMember = visibilityDependsOnMembership(viewer, owner) && (await this.isOrgMember(owner.id, viewer!.id));
    return canSeeOwner(viewer, owner, isMember);
  }
}
