// What an owner stores, read from the rows that describe it (Forgejo: models/quota/used.go): git and LFS sizes of
// the owner's repositories (kept current from disk after every write), attachments and artifacts of those
// repositories. Packages are counted by PackageUsageRepository.
import type { ListOptions, Page } from '../domain/page.ts';
import type { DbClient, Prisma } from './prisma.ts';

export interface RepositoryUsage {
  reposPublic: number;
  reposPrivate: number;
  lfs: number;
}

export interface AttachmentUsage {
  issues: number;
  releases: number;
}

type OwnedRepo = { id: number; ownerName: string; name: string };

export interface UsedAttachment {
  attachment: Prisma.AttachmentModel;
  repo: OwnedRepo;
  release: { id: number; tagName: string } | null;
  issue: { index: number; isPull: boolean } | null;
}

export interface UsedArtifact {
  artifact: Prisma.ActionArtifactModel;
  repo: OwnedRepo;
}

const bytes = (value: bigint | null | undefined) => Number(value ?? 0n);

export class QuotaUsageRepository {
  constructor(private readonly client: DbClient) {}

  async repositories(ownerId: number): Promise<RepositoryUsage> {
    const sums = await this.client.repository.groupBy({
      by: ['isPrivate'],
      where: { ownerId },
      _sum: { gitSize: true, lfsSize: true },
    });
    const of = (isPrivate: boolean) => sums.find((row) => row.isPrivate === isPrivate)?._sum;
    return {
      reposPublic: bytes(of(false)?.gitSize),
      reposPrivate: bytes(of(true)?.gitSize),
      lfs: sums.reduce((total, row) => total + bytes(row._sum.lfsSize), 0),
    };
  }

  private async ownedRepos(ownerId: number): Promise<OwnedRepo[]> {
    return this.client.repository.findMany({ where: { ownerId }, select: { id: true, ownerName: true, name: true } });
  }

  /** Attachments of releases, and of issues and comments (everything else). */
  async attachments(ownerId: number): Promise<AttachmentUsage> {
    const repoIds = (await this.ownedRepos(ownerId)).map((repo) => repo.id);
    if (repoIds.length === 0) return { issues: 0, releases: 0 };
    const sums = await this.client.attachment.groupBy({
      by: ['releaseId'],
      where: { repoId: { in: repoIds } },
      _sum: { size: true },
    });
    let issues = 0;
    let releases = 0;
    for (const row of sums) {
      if (row.releaseId === 0) issues += bytes(row._sum.size);
      else releases += bytes(row._sum.size);
    }
    return { issues, releases };
  }

  /** Compressed artifact sizes, as Forgejo counts them. */
  async artifacts(ownerId: number): Promise<number> {
    const repoIds = (await this.ownedRepos(ownerId)).map((repo) => repo.id);
    if (repoIds.length === 0) return 0;
    const sum = await this.client.actionArtifact.aggregate({
      where: { repoId: { in: repoIds } },
      _sum: { fileCompressedSize: true },
    });
    return bytes(sum._sum.fileCompressedSize);
  }

  /** Largest first, with what contains each attachment. */
  async listAttachments(ownerId: number, page: ListOptions): Promise<Page<UsedAttachment>> {
    const repos = new Map((await this.ownedRepos(ownerId)).map((repo) => [repo.id, repo]));
    const where = { repoId: { in: [...repos.keys()] } };
    const [rows, total] = await Promise.all([
      this.client.attachment.findMany({
        where,
        orderBy: [{ size: 'desc' }, { id: 'asc' }],
        skip: page.skip,
        take: page.limit,
      }),
      this.client.attachment.count({ where }),
    ]);
    const releaseIds = rows.map((row) => row.releaseId).filter((id) => id !== 0);
    const comments = await this.client.comment.findMany({
      where: { id: { in: rows.map((row) => row.commentId).filter((id) => id !== 0) } },
      select: { id: true, issueId: true },
    });
    const issueIdOf = (row: Prisma.AttachmentModel) =>
      (row.commentId ? comments.find((c) => c.id === row.commentId)?.issueId : row.issueId) ?? 0;
    const [releases, issues] = await Promise.all([
      this.client.release.findMany({ where: { id: { in: releaseIds } }, select: { id: true, tagName: true } }),
      this.client.issue.findMany({
        where: { id: { in: rows.map(issueIdOf).filter((id) => id !== 0) } },
        select: { id: true, index: true, isPull: true },
      }),
    ]);
    const items = rows.map((attachment) => ({
      attachment,
      repo: repos.get(attachment.repoId)!,
      release: releases.find((release) => release.id === attachment.releaseId) ?? null,
      issue: issues.find((issue) => issue.id === issueIdOf(attachment)) ?? null,
    }));
    return { items, total };
  }

  async listArtifacts(ownerId: number, page: ListOptions): Promise<Page<UsedArtifact>> {
    const repos = new Map((await this.ownedRepos(ownerId)).map((repo) => [repo.id, repo]));
    const where = { repoId: { in: [...repos.keys()] } };
    const [rows, total] = await Promise.all([
      this.client.actionArtifact.findMany({
        where,
        orderBy: [{ fileCompressedSize: 'desc' }, { id: 'asc' }],
        skip: page.skip,
        take: page.limit,
      }),
      this.client.actionArtifact.count({ where }),
    ]);
    return { items: rows.map((artifact) => ({ artifact, repo: repos.get(artifact.repoId)! })), total };
  }
}
