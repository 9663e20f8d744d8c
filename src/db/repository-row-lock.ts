// Numbers handed out per repository (an issue's, a commit status's) are the highest so far plus one. Two transactions
// reading the same highest would both write the next, and the unique index would refuse one of them. On PostgreSQL
// the repository's row is held until the transaction ends, so they are decided one after another; SQLite's write
// lock already orders them.
import type { DatabaseTarget } from '../infra/database/target.ts';
import type { DbClient } from './prisma.ts';

export async function lockRepositoryRow(
  client: DbClient,
  provider: DatabaseTarget['provider'],
  repoId: number,
): Promise<void> {
  if (provider === 'postgresql')
    await client.$queryRaw`SELECT "id" FROM "Repository" WHERE "id" = ${repoId} FOR UPDATE`;
}
