// Quota for one write whose size is learnt as its bytes arrive (an upload, a push). Before bytes go past what it
// holds, the hold grows its reservation (QuotaService.reserve: one transaction that holds the owner, counting what
// is stored and what other writes in progress hold), so two writes at once cannot together pass a limit, and a
// write is stopped at the limit rather than after it. The reservation ends with the transaction that records the
// write (endIn), or with release() when the write fails.
import type { Repositories } from '../db/repositories.ts';
import type { ByteBudget } from '../infra/storage/blob-store.ts';

export interface Reserved {
  reservationId: number;
  granted: number;
}

/** How a hold asks for more: `needed` must fit, up to `wanted` is taken when it fits; answers what it holds. */
export interface QuotaReserver {
  reserve(reservationId: number | null, needed: number, wanted: number): Promise<Reserved>;
  /** Inside the caller's transaction. */
  end(repos: Repositories, reservationId: number): Promise<void>;
  release(reservationId: number): Promise<void>;
}

const KiB = 1024;
/**
 * Reserved ahead of what arrived: as much again, within these bounds, to keep database round trips few; near a
 * limit less (QuotaService.reserve), so that what one write holds ahead rarely refuses another that would fit.
 */
const MIN_AHEAD = 64 * KiB;
const MAX_AHEAD = 4 * 1024 * KiB;

export class QuotaHold implements ByteBudget {
  private reservationId: number | null = null;
  private granted = 0;
  private growing: Promise<void> | null = null;

  /** `reserver` null: quota is off and the hold admits everything. */
  constructor(private readonly reserver: QuotaReserver | null) {}

  /** Reserves `bytes` now, as for a write whose length was announced. */
  async reserveUpFront(bytes: number): Promise<void> {
    if (bytes > 0) await this.grow(bytes, bytes);
  }

  admit(totalBytes: number): void | Promise<void> {
    if (!this.reserver || totalBytes <= this.granted) return;
    return this.grow(totalBytes, totalBytes + Math.min(MAX_AHEAD, Math.max(MIN_AHEAD, totalBytes)));
  }

  private async grow(needed: number, wanted: number): Promise<void> {
    // One growth at a time: a stream admits chunk after chunk anyway, this keeps a second caller from racing.
    while (this.growing) await this.growing;
    if (!this.reserver || needed <= this.granted) return;
    const growth = this.reserver.reserve(this.reservationId, needed, wanted).then(({ reservationId, granted }) => {
      this.reservationId = reservationId;
      this.granted = granted;
    });
    this.growing = growth
      .finally(() => {
        this.growing = null;
      })
      .catch(() => undefined);
    await growth;
  }

  /** Inside the transaction that records the write: the reservation ends as what replaces it is stored. */
  async endIn(repos: Repositories): Promise<void> {
    if (this.reserver && this.reservationId !== null) await this.reserver.end(repos, this.reservationId);
  }

  /** Ends the reservation outside any transaction (a failed write); harmless after endIn or a second time. */
  async release(): Promise<void> {
    if (this.reserver && this.reservationId !== null) await this.reserver.release(this.reservationId);
    this.granted = 0;
  }
}
