// Webhook configurations, each query scoped by where the hook belongs: an owner and a repository, both 0 for
// the instance's hooks, repository 0 for an organization's.
import { translated } from './errors.ts';
import type { ListOptions } from '../domain/page.ts';
import type { DbClient, Prisma } from './prisma.ts';

export type Webhook = Prisma.WebhookModel;

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

  async create(owner: HookOwner, row: NewHookRow): Promise<Webhook> {
    return this.client.webhook.create({ data: { ...row, ownerId: owner.ownerId, repoId: owner.repoId } });
  }

  async update(owner: HookOwner, id: number, changes: HookRowChanges): Promise<Webhook> {
    return translated({ gone: 'webhook' }, () =>
      this.client.webhook.update({ where: { id, ownerId: owner.ownerId, repoId: owner.repoId }, data: { ...changes, updatedAt: new Date() } }),
    );
  }

  async delete(owner: HookOwner, id: number): Promise<void> {
    await translated({ gone: 'webhook' }, () => this.client.webhook.delete({ where: { id, ownerId: owner.ownerId, repoId: owner.repoId } }));
  }
}
