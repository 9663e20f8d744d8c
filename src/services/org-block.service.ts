// Users blocked by an organization (Forgejo: routers/api/v1/org/org.go, services/user/block.go).
import type { OrgBlockRepository } from '../db/org-block.repository.ts';
import type { Models, User } from '../db/entities.ts';
import { ValidationError } from '../domain/errors.ts';
import type { ListOptions, Page } from '../domain/page.ts';
import type { ServiceDeps } from './service-deps.ts';
import type { OrgMemberService } from './org-member.service.ts';
import { isOrganization } from '../domain/access/owner-visibility.ts';
import { userNotFound } from '../domain/name-not-found.ts';

export type UserBlocking = Models.UserBlockingModel;

export class OrgBlockService {
  private readonly blocks: OrgBlockRepository;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly members: OrgMemberService,
  ) {
    this.blocks = deps.repos.orgBlocks;
  }

  async list(org: User, page: ListOptions): Promise<Page<UserBlocking>> {
    return this.blocks.list(org.id, page);
  }

  private async target(username: string): Promise<User> {
    const user = await this.deps.repos.users.byLowerName(username.toLowerCase());
    if (!user) throw userNotFound(username);
    if (isOrganization(user)) throw new ValidationError(`${user.name} is an organization not a user`);
    return user;
  }

  /**
   * Blocks a user: they leave the organization's teams (and so the organization), their follows, watches of
   * its repositories and collaborations on them end. Blocking twice is a silent success.
   */
  async block(org: User, username: string): Promise<void> {
    const user = await this.target(username);
    if (await this.blocks.isBlocked(org.id, user.id)) return;
    // Refuses (422) when the user is the last owner, before anything changes.
    await this.members.removeFromOrg(org, user);
    await this.deps.transactions.run((repos) => repos.orgBlocks.blockAndSever(org.id, user.id));
  }

  async unblock(org: User, username: string): Promise<void> {
    const user = await this.target(username);
    await this.blocks.unblock(org.id, user.id);
  }
}
