// Users blocked by an organization (Forgejo: routers/api/v1/org/org.go, services/user/block.go).
import type { Caller } from '../auth/caller.ts';
import type { Prisma, User } from '../db/prisma.ts';
import { NotFoundError, ValidationError } from '../errors.ts';
import type { ListOptions } from '../http/pagination.ts';
import type { ServiceDeps } from './index.ts';
import type { OrgMemberService } from './org-member.service.ts';
import type { OrgService, Page } from './org.service.ts';

export type UserBlocking = Prisma.UserBlockingModel;

export class OrgBlockService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly orgs: OrgService,
    private readonly members: OrgMemberService,
  ) {}

  private get prisma() {
    return this.deps.db.prisma;
  }

  async list(caller: Caller, orgName: string, page: ListOptions): Promise<Page<UserBlocking>> {
    const org = await this.orgs.resolve(caller, orgName, 'owner');
    const where = { blockerId: org.id };
    const [items, total] = await Promise.all([
      this.prisma.userBlocking.findMany({ where, orderBy: { id: 'asc' }, skip: page.skip, take: page.limit }),
      this.prisma.userBlocking.count({ where }),
    ]);
    return { items, total };
  }

  private async target(username: string): Promise<User> {
    const user = await this.deps.db.hot.userByLowerName(username.toLowerCase());
    if (!user) throw new NotFoundError(`user does not exist [name: ${username}]`);
    if (user.type === 1) throw new ValidationError(`${user.name} is an organization not a user`);
    return user;
  }

  /**
   * Blocks a user: they leave the organization's teams (and so the organization), their follows, watches of
   * its repositories and collaborations on them end. Blocking twice is a silent success.
   */
  async block(caller: Caller, orgName: string, username: string): Promise<void> {
    const org = await this.orgs.resolve(caller, orgName, 'owner');
    const user = await this.target(username);
    const existing = await this.prisma.userBlocking.findUnique({ where: { blockerId_blockeeId: { blockerId: org.id, blockeeId: user.id } } });
    if (existing) return;
    // Refuses (422) when the user is the last owner, before anything changes.
    await this.members.removeFromOrg(org, user);
    const repoIds = (await this.prisma.repository.findMany({ where: { ownerId: org.id }, select: { id: true } })).map((r) => r.id);
    await this.prisma.$transaction([
      this.prisma.userBlocking.create({ data: { blockerId: org.id, blockeeId: user.id } }),
      this.prisma.follow.deleteMany({ where: { OR: [{ userId: user.id, followId: org.id }, { userId: org.id, followId: user.id }] } }),
      this.prisma.watch.deleteMany({ where: { userId: user.id, repoId: { in: repoIds } } }),
      this.prisma.collaboration.deleteMany({ where: { userId: user.id, repoId: { in: repoIds } } }),
    ]);
  }

  async unblock(caller: Caller, orgName: string, username: string): Promise<void> {
    const org = await this.orgs.resolve(caller, orgName, 'owner');
    const user = await this.target(username);
    await this.prisma.userBlocking.deleteMany({ where: { blockerId: org.id, blockeeId: user.id } });
  }
}
