// Commit statuses (CommitStatus rows): every report is kept, numbered per repository and commit.
import type { StatusSort } from '../domain/commit-status.ts';
import type { Models } from './entities.ts';
import { type DbClient, PrismaSql } from './prisma.ts';
import { lockRepositoryRow } from './repository-row-lock.ts';
import { sqliteTimestamp } from './sqlite-values.ts';
import type { DatabaseTarget } from '../infra/database/target.ts';

export type CommitStatusRow = Models.CommitStatusModel;

/** Tries of one append outside a transaction on PostgreSQL: each refused one lost to a status that was written. */
const MAX_APPEND_ATTEMPTS = 50;

export interface NewCommitStatus {
  repoId: number;
  sha: string;
  state: string;
  targetUrl: string;
  description: string;
  context: string;
  creatorId: number;
}

const ORDER: Record<StatusSort, { [key: string]: 'asc' | 'desc' }> = {
  oldest: { createdAt: 'asc' },
  recentupdate: { updatedAt: 'desc' },
  leastupdate: { updatedAt: 'asc' },
  leastindex: { index: 'asc' },
  highestindex: { index: 'desc' },
};

export class CommitStatusRepository {
  constructor(
    private readonly client: DbClient,
    private readonly provider: DatabaseTarget['provider'],
  ) {}

  /**
   * Appends a status with the next index of its commit, in a transaction or not. On SQLite it is one statement, which
   * the write lock orders against any other. On PostgreSQL a caller's transaction holds the repository's row for it
   * (its hook events follow the index order); outside one, one statement too: the unique index refuses an index a
   * concurrent status took first, and the next try counts again.
   */
  async record(status: NewCommitStatus): Promise<CommitStatusRow> {
    if (this.provider === 'sqlite') return (await this.appendInOneStatement(status, sqliteTimestamp))!;
    if (!('$transaction' in this.client)) return this.create(status);
    const onConflict = PrismaSql.sql`ON CONFLICT ("repoId", "sha", "index") DO NOTHING`;
    for (let attempt = 1; ; attempt++) {
      const row = await this.appendInOneStatement(status, (at) => at, onConflict);
      if (row) return row;
      if (attempt === MAX_APPEND_ATTEMPTS) throw new Error(`no free status index after ${attempt} tries`);
    }
  }

  private async appendInOneStatement(
    status: NewCommitStatus,
    timestamp: (at: Date) => unknown,
    onConflict = PrismaSql.empty,
  ): Promise<CommitStatusRow | null> {
    const now = new Date();
    const at = timestamp(now);
    const { repoId, sha, state, targetUrl, description, context, creatorId } = status;
    const [row] = await this.client.$queryRaw<Array<{ id: number; index: number }>>`
      INSERT INTO "CommitStatus"
        ("index", "repoId", "sha", "state", "targetUrl", "description", "context", "creatorId", "createdAt", "updatedAt")
      SELECT COALESCE(MAX("index"), 0) + 1, ${repoId}, ${sha}, ${state}, ${targetUrl}, ${description}, ${context},
        ${creatorId}, ${at}, ${at}
      FROM "CommitStatus" WHERE "repoId" = ${repoId} AND "sha" = ${sha}
      ${onConflict}
      RETURNING "id", "index"`;
    return row ? { ...status, id: Number(row.id), index: Number(row.index), createdAt: now, updatedAt: now } : null;
  }

  /** Appends a status with the next index of its commit (in a transaction, which then holds the repository). */
  private async create(status: NewCommitStatus): Promise<CommitStatusRow> {
    await lockRepositoryRow(this.client, this.provider, status.repoId);
    const last = await this.client.commitStatus.findFirst({
      where: { repoId: status.repoId, sha: status.sha },
      orderBy: { index: 'desc' },
      select: { index: true },
    });
    return this.client.commitStatus.create({ data: { ...status, index: (last?.index ?? 0) + 1 } });
  }

  async list(
    repoId: number,
    sha: string,
    options: { sort?: StatusSort; state?: string; skip: number; take: number },
  ): Promise<{ rows: CommitStatusRow[]; total: number }> {
    const where = { repoId, sha, ...(options.state ? { state: options.state } : {}) };
    const [rows, total] = await Promise.all([
      this.client.commitStatus.findMany({
        where,
        orderBy: [ORDER[options.sort ?? 'recentupdate'], { id: 'desc' }],
        skip: options.skip,
        take: options.take,
      }),
      this.client.commitStatus.count({ where }),
    ]);
    return { rows, total };
  }

  /** The newest status of each context of a commit, by context. */
  async latestPerContext(repoId: number, sha: string): Promise<CommitStatusRow[]> {
    const rows = await this.client.commitStatus.findMany({ where: { repoId, sha }, orderBy: { index: 'desc' } });
    const seen = new Set<string>();
    return rows.filter((row) => !seen.has(row.context) && seen.add(row.context));
  }

  async deleteForRepo(repoId: number): Promise<void> {
    await this.client.commitStatus.deleteMany({ where: { repoId } });
  }
}
