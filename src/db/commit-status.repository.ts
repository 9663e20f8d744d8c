// Commit statuses (CommitStatus rows): every report is kept, numbered per repository and commit.
import type { StatusSort } from '../domain/commit-status.ts';
import type { Models } from './entities.ts';
import type { DbClient } from './prisma.ts';
import { lockRepositoryRow } from './repository-row-lock.ts';
import { sqliteTimestamp } from './sqlite-values.ts';
import type { DatabaseTarget } from '../infra/database/target.ts';

export type CommitStatusRow = Models.CommitStatusModel;

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
   * the write lock orders against any other; on PostgreSQL a transaction holds the repository's row for it.
   */
  async record(status: NewCommitStatus): Promise<CommitStatusRow> {
    if (this.provider === 'sqlite') return this.appendInOneStatement(status);
    const client = this.client;
    if (!('$transaction' in client)) return this.create(status);
    return client.$transaction((tx) => new CommitStatusRepository(tx, this.provider).create(status));
  }

  private async appendInOneStatement(status: NewCommitStatus): Promise<CommitStatusRow> {
    const now = new Date();
    const at = sqliteTimestamp(now);
    const { repoId, sha, state, targetUrl, description, context, creatorId } = status;
    const [row] = await this.client.$queryRaw<Array<{ id: number; index: number }>>`
      INSERT INTO "CommitStatus"
        ("index", "repoId", "sha", "state", "targetUrl", "description", "context", "creatorId", "createdAt", "updatedAt")
      SELECT COALESCE(MAX("index"), 0) + 1, ${repoId}, ${sha}, ${state}, ${targetUrl}, ${description}, ${context},
        ${creatorId}, ${at}, ${at}
      FROM "CommitStatus" WHERE "repoId" = ${repoId} AND "sha" = ${sha}
      RETURNING "id", "index"`;
    return { ...status, id: Number(row.id), index: Number(row.index), createdAt: now, updatedAt: now };
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
