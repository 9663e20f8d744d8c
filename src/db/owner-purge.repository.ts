// Removal of everything that belongs to users or organizations, inside the caller's transaction: their
// repositories (through the same function as a single repository's deletion), packages, actions data and hooks.
// Files on disk are the caller's business (it removes them after the commit).
import { deleteOrphanBlobRows } from './package-blob.repository.ts';
import { deletePropertiesOf } from './package-property.repository.ts';
import type { DbClient, User } from './prisma.ts';
import { ORG_TYPE } from '../domain/access/owner-visibility.ts';
import { RepositoryRowsRepository } from './repository-rows.repository.ts';
import type { DatabaseTarget } from '../infra/database/target.ts';

type Tx = DbClient;

/** The functions below bound to one client (use it inside a transaction), plus the lookups a purge starts from. */
export class OwnerPurgeRepository {
  constructor(
    private readonly tx: Tx,
    private readonly provider: DatabaseTarget['provider'],
  ) {}

  /**
   * Inside the deleting transaction, before its checks: holds the owner's row until the commit. A repository or
   * package being created for the owner holds a key-share lock on that row from its insert to its commit, so on
   * PostgreSQL the checks then see it (and refuse), or its insert waits and finds the owner gone. Without this,
   * the owner's deletion would cascade over a row committed after the checks. SQLite runs one write transaction
   * at a time anyway.
   */
  async lockOwner(ownerId: number): Promise<void> {
    if (this.provider !== 'postgresql') return;
    await this.tx.$queryRaw`SELECT "id" FROM "User" WHERE "id" = ${ownerId} FOR UPDATE`;
  }

  countOwnedData(ownerId: number): Promise<{ repositories: number; packages: number }> {
    return countOwnedData(this.tx, ownerId);
  }

  purgeOwnedData(ownerIds: number[]): Promise<{ orphanBlobHashes: string[] }> {
    return purgeOwnedData(this.tx, this.provider, ownerIds);
  }

  deletePersonalRows(userId: number): Promise<void> {
    return deletePersonalRows(this.tx, userId);
  }

  /** Organizations whose Owners team has this user as its only member. */
  async findOrgsOnlyOwnedBy(userId: number): Promise<User[]> {
    const ownerTeams = await this.tx.team.findMany({
      where: { lowerName: 'owners', members: { some: { userId } } },
      select: { orgId: true, _count: { select: { members: true } } },
    });
    const orgIds = ownerTeams.filter((team) => team._count.members === 1).map((team) => team.orgId);
    return orgIds.length === 0 ? [] : this.tx.user.findMany({ where: { id: { in: orgIds }, type: ORG_TYPE } });
  }
}

/** What an owner must not own to be deleted without purging (Forgejo: ErrUserOwnRepos, ErrUserOwnPackages). */
async function countOwnedData(tx: Tx, ownerId: number): Promise<{ repositories: number; packages: number }> {
  const [repositories, packages] = await Promise.all([
    tx.repository.count({ where: { ownerId } }),
    tx.package.count({ where: { ownerId } }),
  ]);
  return { repositories, packages };
}

/** Deletes the owners' repositories, packages (with their properties and signing keys), secrets, variables, runner tokens and hooks. */
async function purgeOwnedData(
  tx: Tx,
  provider: DatabaseTarget['provider'],
  ownerIds: number[],
): Promise<{ orphanBlobHashes: string[] }> {
  const byOwner = { ownerId: { in: ownerIds } };
  const repos = await tx.repository.findMany({ where: byOwner, select: { id: true } });
  await new RepositoryRowsRepository(tx, provider).deleteWithRelatedRows(repos.map((repo) => repo.id));

  const files = await tx.packageFile.findMany({
    where: { version: { package: byOwner } },
    select: { id: true, blobId: true },
  });
  const packages = await tx.package.findMany({
    where: byOwner,
    select: { id: true, versions: { select: { id: true } } },
  });
  await deletePropertiesOf(tx, {
    packageIds: packages.map((row) => row.id),
    versionIds: packages.flatMap((row) => row.versions.map((version) => version.id)),
    fileIds: files.map((file) => file.id),
  });
  await tx.package.deleteMany({ where: byOwner });
  const orphanBlobHashes = await deleteOrphanBlobRows(
    tx,
    provider,
    files.map((file) => file.blobId),
  );

  await Promise.all([
    tx.secret.deleteMany({ where: byOwner }),
    tx.packageSigningKey.deleteMany({ where: byOwner }),
    tx.actionVariable.deleteMany({ where: byOwner }),
    tx.actionRunnerToken.deleteMany({ where: byOwner }),
    tx.actionArtifact.deleteMany({ where: byOwner }),
    tx.webhook.deleteMany({ where: byOwner }),
    tx.label.deleteMany({ where: { orgId: { in: ownerIds } } }),
  ]);
  return { orphanBlobHashes };
}

/** Rows about one person (not owned data): follows, stars, watches, blocks, notifications, feeds, memberships. */
async function deletePersonalRows(tx: Tx, userId: number): Promise<void> {
  const [following, followers, stars, watches, teamMemberships] = await Promise.all([
    tx.follow.findMany({ where: { userId }, select: { followId: true } }),
    tx.follow.findMany({ where: { followId: userId }, select: { userId: true } }),
    tx.star.findMany({ where: { userId }, select: { repoId: true } }),
    tx.watch.findMany({ where: { userId }, select: { repoId: true } }),
    tx.teamUser.findMany({ where: { userId }, select: { teamId: true } }),
  ]);
  const decrement = { decrement: 1 };
  await Promise.all([
    tx.user.updateMany({ where: { id: { in: following.map((f) => f.followId) } }, data: { numFollowers: decrement } }),
    tx.user.updateMany({ where: { id: { in: followers.map((f) => f.userId) } }, data: { numFollowing: decrement } }),
    tx.repository.updateMany({ where: { id: { in: stars.map((s) => s.repoId) } }, data: { numStars: decrement } }),
    tx.repository.updateMany({ where: { id: { in: watches.map((w) => w.repoId) } }, data: { numWatches: decrement } }),
    tx.team.updateMany({
      where: { id: { in: teamMemberships.map((m) => m.teamId) } },
      data: { numMembers: decrement },
    }),
  ]);
  await Promise.all([
    tx.follow.deleteMany({ where: { OR: [{ userId }, { followId: userId }] } }),
    tx.star.deleteMany({ where: { userId } }),
    tx.watch.deleteMany({ where: { userId } }),
    tx.issueWatch.deleteMany({ where: { userId } }),
    tx.userBlocking.deleteMany({ where: { OR: [{ blockerId: userId }, { blockeeId: userId }] } }),
    tx.notification.deleteMany({ where: { userId } }),
    tx.action.deleteMany({ where: { userId } }),
    tx.collaboration.deleteMany({ where: { userId } }),
    tx.teamUser.deleteMany({ where: { userId } }),
    tx.orgUser.deleteMany({ where: { userId } }),
    tx.quotaGroupUser.deleteMany({ where: { userId } }),
    tx.userRedirect.deleteMany({ where: { redirectUserId: userId } }),
  ]);
}
