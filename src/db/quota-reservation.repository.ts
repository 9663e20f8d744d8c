// Reservations of quota by writes in progress (see the QuotaReservation model). Every change for one owner runs
// inside a transaction that first calls lockOwner, so reservations of one owner are decided one after another,
// across processes too.
import { isQuotaLeaf, type QuotaLeaf } from '../domain/quota.ts';
import type { DbClient } from './prisma.ts';
import type { DatabaseTarget } from '../infra/database/target.ts';

export interface LiveReservation {
  leaf: QuotaLeaf;
  bytes: number;
}

export class QuotaReservationRepository {
  constructor(
    private readonly client: DbClient,
    private readonly provider: DatabaseTarget['provider'],
  ) {}

  /**
   * Inside a transaction: holds the owner's row until it ends (PostgreSQL), then forgets the owner's expired
   * reservations, a write that also takes SQLite's write lock before anything is read.
   */
  async lockOwner(ownerId: number, now: Date): Promise<void> {
    if (this.provider === 'postgresql') {
      await this.client.$queryRaw`SELECT "id" FROM "User" WHERE "id" = ${ownerId} FOR UPDATE`;
    }
    await this.client.quotaReservation.deleteMany({ where: { ownerId, expiresAt: { lte: now } } });
  }

  /** The owner's reservations that still count, but `exceptId`. */
  async live(ownerId: number, now: Date, exceptId: number | null): Promise<LiveReservation[]> {
    const rows = await this.client.quotaReservation.findMany({
      where: { ownerId, expiresAt: { gt: now }, ...(exceptId === null ? {} : { id: { not: exceptId } }) },
      select: { leaf: true, bytes: true },
    });
    return rows
      .filter((row) => isQuotaLeaf(row.leaf))
      .map((row) => ({ leaf: row.leaf as QuotaLeaf, bytes: Number(row.bytes) }));
  }

  async create(ownerId: number, leaf: QuotaLeaf, bytes: number, expiresAt: Date): Promise<number> {
    const data = { ownerId, leaf, bytes: BigInt(bytes), expiresAt };
    const row = await this.client.quotaReservation.create({ data, select: { id: true } });
    return row.id;
  }

  /** False when the reservation is gone (it expired and was forgotten). */
  async update(id: number, bytes: number, expiresAt: Date): Promise<boolean> {
    const data = { bytes: BigInt(bytes), expiresAt };
    const { count } = await this.client.quotaReservation.updateMany({ where: { id }, data });
    return count === 1;
  }

  async delete(id: number): Promise<void> {
    await this.client.quotaReservation.deleteMany({ where: { id } });
  }
}
