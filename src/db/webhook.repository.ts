// Webhook configurations, each query scoped by where the hook belongs: an owner and a repository, both 0 for
// the instance's hooks, repository 0 for an organization's. The hook secret and the authorization header are
// encrypted on the way in and decrypted on the way out, so callers of this class only see clear values.
import { AtRestCipher } from '../crypto/at-rest-cipher.ts';
import { translated } from '../infra/database/errors.ts';
import type { ListOptions } from '../domain/page.ts';
import type { DbClient, Prisma } from './prisma.ts';
import type { EventHotQueries } from './hot-event-queries.ts';

export type Webhook = Prisma.WebhookModel;

export interface HookOwner {
  ownerId: number;
  repoId: number;
}

/** The columns of a new hook besides where it belongs. */
export type NewHookRow = Omit<
  Prisma.WebhookUncheckedCreateInput,
  'id' | 'ownerId' | 'repoId' | 'createdAt' | 'updatedAt'
>;

export type HookRowChanges = Partial<NewHookRow>;

/** The encrypted columns, each with the context its values are bound to. */
const SEALED_COLUMNS = [
  ['secret', 'webhook.secret'],
  ['authorization', 'webhook.authorization'],
] as const;

export class WebhookRepository {
  constructor(
    private readonly client: DbClient,
    private readonly cipher: AtRestCipher,
    /** Asks whether any hook is active by a prepared statement; absent inside a transaction. */
    private readonly hot?: EventHotQueries,
  ) {}

  private seal<T extends HookRowChanges>(row: T): T {
    const sealed = { ...row };
    for (const [column, context] of SEALED_COLUMNS) {
      const value = row[column];
      if (value !== undefined) sealed[column] = this.cipher.encrypt(value, context);
    }
    return sealed;
  }

  /** Rows written before encryption hold clear values; they read as they are until encryptLegacyRows() runs. */
  private open(hook: Webhook): Webhook {
    const opened = { ...hook };
    for (const [column, context] of SEALED_COLUMNS) opened[column] = this.cipher.open(hook[column], context);
    return opened;
  }

  async find(owner: HookOwner, id: number): Promise<Webhook | null> {
    const hook = await this.client.webhook.findFirst({ where: { id, ownerId: owner.ownerId, repoId: owner.repoId } });
    return hook && this.open(hook);
  }

  async list(owner: HookOwner, page: ListOptions): Promise<{ items: Webhook[]; total: number }> {
    const where = { ownerId: owner.ownerId, repoId: owner.repoId };
    const [items, total] = await Promise.all([
      this.client.webhook.findMany({ where, orderBy: { id: 'asc' }, skip: page.skip, take: page.limit }),
      this.client.webhook.count({ where }),
    ]);
    return { items: items.map((hook) => this.open(hook)), total };
  }

  /** The instance's system hooks (not its default hooks), all of them. */
  async listSystemHooks(): Promise<Webhook[]> {
    const hooks = await this.client.webhook.findMany({
      where: { ownerId: 0, repoId: 0, isSystemWebhook: true },
      orderBy: { id: 'asc' },
    });
    return hooks.map((hook) => this.open(hook));
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

  /** Whether listActiveFor would find any hook. */
  async anyActiveFor(source: { ownerId: number; repoId: number | null }): Promise<boolean> {
    if (this.hot && source.repoId) return this.hot.activeHookExists(source.ownerId, source.repoId);
    return (await this.listActiveFor(source)).length > 0;
  }

  /** Copies the instance's default hooks into a new repository, as Forgejo does at creation (CopyDefaultWebhooksToRepo). */
  async copyDefaultHooksTo(repoId: number): Promise<void> {
    const defaults = await this.client.webhook.findMany({
      where: { ownerId: 0, repoId: 0, isSystemWebhook: false },
      orderBy: { id: 'asc' },
    });
    for (const hook of defaults) {
      const { id: _id, createdAt: _created, updatedAt: _updated, ...row } = hook;
      await this.client.webhook.create({ data: { ...row, ownerId: 0, repoId } });
    }
  }

  /** A hook by id wherever it belongs, for delivering what was queued for it. */
  async findForDelivery(id: number): Promise<Webhook | null> {
    const hook = await this.client.webhook.findUnique({ where: { id } });
    return hook && this.open(hook);
  }

  async create(owner: HookOwner, row: NewHookRow): Promise<Webhook> {
    const hook = await this.client.webhook.create({
      data: { ...this.seal(row), ownerId: owner.ownerId, repoId: owner.repoId },
    });
    return this.open(hook);
  }

  async update(owner: HookOwner, id: number, changes: HookRowChanges): Promise<Webhook> {
    const hook = await translated({ gone: 'webhook' }, () =>
      this.client.webhook.update({
        where: { id, ownerId: owner.ownerId, repoId: owner.repoId },
        data: { ...this.seal(changes), updatedAt: new Date() },
      }),
    );
    return this.open(hook);
  }

  async delete(owner: HookOwner, id: number): Promise<void> {
    await translated({ gone: 'webhook' }, () =>
      this.client.webhook.delete({ where: { id, ownerId: owner.ownerId, repoId: owner.repoId } }),
    );
  }

  /**
   * Encrypts the values stored in clear before Anvil encrypted them; run at start. Returns how many rows changed.
   * A row is rewritten only if it still holds what was read, so a concurrent edit is never overwritten.
   */
  async encryptLegacyRows(): Promise<number> {
    const notSealed = (column: 'secret' | 'authorization') => ({
      NOT: { [column]: { startsWith: AtRestCipher.PREFIX } },
    });
    const legacy = await this.client.webhook.findMany({
      where: { OR: [notSealed('secret'), notSealed('authorization')] },
      select: { id: true, secret: true, authorization: true },
    });
    let changed = 0;
    for (const row of legacy) {
      const sealed: { secret?: string; authorization?: string } = {};
      for (const [column, context] of SEALED_COLUMNS) {
        if (!AtRestCipher.isSealed(row[column])) sealed[column] = this.cipher.encrypt(row[column], context);
      }
      const { count } = await this.client.webhook.updateMany({
        where: { id: row.id, secret: row.secret, authorization: row.authorization },
        data: sealed,
      });
      changed += count;
    }
    return changed;
  }
}
