// Deleting repositories from the database, inside the caller's transaction: every row that names them and the
// counters that counted them. One function for deleting one repository and for purging an owner's all.
// The directories are the caller's business (it removes them after the commit).
import type { Prisma } from './prisma.ts';

type Tx = Prisma.TransactionClient;

/** Occurrences of each id, grouped by count: decrementing by the count needs one update per distinct count. */
function idsByCount(ids: readonly number[]): Map<number, number[]> {
  const counts = new Map<number, number>();
  for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
  const groups = new Map<number, number[]>();
  for (const [id, count] of counts) groups.set(count, [...(groups.get(count) ?? []), id]);
  return groups;
}

export async function deleteRepositoryRows(tx: Tx, repoIds: readonly number[]): Promise<void> {
  if (repoIds.length === 0) return;
  const ids = [...repoIds];
  const byRepo = { repoId: { in: ids } };
  const [repos, teamRepos, stars, issues] = await Promise.all([
    tx.repository.findMany({ where: { id: { in: ids } }, select: { ownerId: true } }),
    tx.teamRepo.findMany({ where: byRepo, select: { teamId: true } }),
    tx.star.findMany({ where: byRepo, select: { userId: true } }),
    tx.issue.findMany({ where: byRepo, select: { id: true } }),
  ]);
  const counters: Promise<unknown>[] = [];
  for (const [count, teamIds] of idsByCount(teamRepos.map((link) => link.teamId))) {
    counters.push(tx.team.updateMany({ where: { id: { in: teamIds } }, data: { numRepos: { decrement: count } } }));
  }
  for (const [count, userIds] of idsByCount(stars.map((star) => star.userId))) {
    counters.push(tx.user.updateMany({ where: { id: { in: userIds } }, data: { numStars: { decrement: count } } }));
  }
  for (const [count, ownerIds] of idsByCount(repos.map((repo) => repo.ownerId))) {
    counters.push(tx.user.updateMany({ where: { id: { in: ownerIds } }, data: { numRepos: { decrement: count } } }));
  }
  await Promise.all(counters);
  await Promise.all([
    tx.issueWatch.deleteMany({ where: { issueId: { in: issues.map((issue) => issue.id) } } }),
    tx.star.deleteMany({ where: byRepo }),
    tx.watch.deleteMany({ where: byRepo }),
    tx.notification.deleteMany({ where: byRepo }),
    tx.action.deleteMany({ where: byRepo }),
    tx.webhook.deleteMany({ where: byRepo }),
    tx.label.deleteMany({ where: byRepo }),
    tx.milestone.deleteMany({ where: byRepo }),
    tx.release.deleteMany({ where: byRepo }),
    tx.attachment.deleteMany({ where: byRepo }),
    tx.secret.deleteMany({ where: byRepo }),
    tx.actionVariable.deleteMany({ where: byRepo }),
    tx.actionArtifact.deleteMany({ where: byRepo }),
    tx.actionRunnerToken.deleteMany({ where: byRepo }),
    tx.repoRedirect.deleteMany({ where: { redirectRepoId: { in: ids } } }),
    // Packages outlive the repository they were linked to, as in Forgejo.
    tx.package.updateMany({ where: byRepo, data: { repoId: 0 } }),
  ]);
  // Issues, units, collaborations, team links and mirrors cascade with the repository.
  await tx.repository.deleteMany({ where: { id: { in: ids } } });
}
