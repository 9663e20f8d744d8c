// Webhook configurations, each query scoped by where the hook belongs: an owner and a repository, both 0 for
// the instance's hooks, repository 0 for an organization's.
import type { ListOptions } from '../domain/page.ts';
import type { DbClient, Prisma } from './prisma.ts';

type Webhook = Prisma.WebhookModel;

export interface HookOwner {
  ownerId: number;
  repoId: number;
}

/** The columns of a new hook besides where it belongs. */
export type NewHookRow = Omit<Prisma.WebhookUncheckedCreateInput, 'id' | 'ownerId' | 'repoId' | 'createdAt' | 'updatedAt'>;

export type HookRowChanges = Partial<NewHookRow>;

export class WebhookRepository {
  constructor(private readonly client: DbClient) {}

  async find(owner: HookOwner, id: number): Promise<Webhook | null> {
    return this.client.webhook.findFirst({ where: { id, ownerId: owner.ownerId, repoId: owner.repoId } });
  }

  async list(owner: HookOwner, page: ListOptions): Promise<{ items: Webhook[]; total: number }> {
    const where = { ownerId: owner.ownerId, repoId: owner.repoId };
    const [items, total] = await Promise.all([
      this.client.webhook.findMany({ where, orderBy: { id: 'asc' }, skip: page.skip, take: page.limit }),
      this.client.webhook.count({ where }),
    ]);
    return { items, total };
  }

  /** The instance's system hooks (not its default hooks), all of them. */
  async listSystemHooks(): Promise<Webhook[]> {
    return this.client.webhook.findMany({ where: { ownerId: 0, repoId: 0, isSystemWebhook: true }, orderBy: { id: 'asc' } });
  }

  /**
   * The active hooks an event in a repository reaches (Forgejo's PrepareWebhooks): the repository's own (default
   * hooks copied into it among them), its owner's, and the instance's system hooks. Without a repository (a
   * package not linked to one), the owner's and the system hooks.
   */
  async listActiveFor(source: { ownerId: number; repoId: number | null }): Promise<Webhook[]> {
    const reach: Prisma.WebhookWhereInput[] = [
      { ownerId: source.ownerId, repoId: 0 },
      { ownerId: 0, repoId: 0, isSystemWebhook: true },
    ];
    if (source.repoId) reach.unshift({ repoId: source.repoId });
    return this.client.webhook.findMany({ where: { isActive: true, OR: reach }, orderBy: { id: 'asc' } });
  }

  /** Copies the instance's default hooks into a new repository, as Forgejo does at creation (CopyDefaultWebhooksToRepo). */
  async copyDefaultHooksTo(repoId: number): Promise<void> {
    const defaults = await this.client.webhook.findMany({ where: { ownerId: 0, repoId: 0, isSystemWebhook: false }, orderBy: { id: 'asc' } });
    for (const hook of defaults) {
      const { id: _id, createdAt: _created, updatedAt: _updated, ...row } = hook;
      await this.client.webhook.create({ data: { ...row, ownerId: 0, repoId } });
    }
  }

  /** A hook by id wherever it belongs, for delivering what was queued for it. */
  async findForDelivery(id: number): Promise<Webhook | null> {
    return this.client.webhook.findUnique({ where: { id } });
  }

  async create(owner: HookOwner, row: NewHookRow): Promise<Webhook> {
    return this.client.webhook.create({ data: { ...row, ownerId: owner.ownerId, repoId: owner.repoId } });
  }

  async update(owner: HookOwner, id: number, changes: HookRowChanges): Promise<Webhook> {
    return this.client.webhook.update({ where: { id, ownerId: owner.ownerId, repoId: owner.repoId }, data: { ...changes, updatedAt: new Date() } });
  }

  async delete(owner: HookOwner, id: number): Promise<void> {
    await this.client.webhook.delete({ where: { id, ownerId: owner.ownerId, repoId: owner.repoId } });
  }
}
