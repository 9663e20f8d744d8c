// Who may see a user or an organization (Forgejo: models/organization HasOrgOrUserVisible).
// Public: everyone. Limited: any signed-in user who is not restricted. Private: members only.
// Restricted users see only organizations they belong to. Administrators and the owner see everything.
import { OrgMemberRepository } from '../db/org-member.repository.ts';
import type { User } from '../db/prisma.ts';
import { Visibility } from '../domain/access.ts';
import type { ServiceDeps } from './index.ts';

export class OwnerAccessService {
  private readonly memberships: OrgMemberRepository;

  constructor(deps: ServiceDeps) {
    this.memberships = new OrgMemberRepository(deps.db.prisma);
  }

  isOrgMember(orgId: number, userId: number): Promise<boolean> {
    return this.memberships.exists(orgId, userId);
  }

  async canSee(viewer: User | null, owner: User): Promise<boolean> {
    if (viewer && (viewer.isAdmin || viewer.id === owner.id)) return true;
    const isOrg = owner.type === 1;
    if (viewer?.isRestricted) return isOrg ? this.isOrgMember(owner.id, viewer.id) : owner.visibility === Visibility.public;
    if (owner.visibility === Visibility.public) return true;
    if (!viewer) return false;
    if (owner.visibility === Visibility.limited) return true;
    return isOrg && this.isOrgMember(owner.id, viewer.id);
  }
}
