// The issue search of GET /repos/issues/search as a plain filter, and the Prisma query it becomes. The service
// decides the filter (and looks up what it names); visibility is visibleIssuesWhere, the rule of
// src/domain/content-visibility.ts.
import { type ContentReader, visibleIssuesWhere } from './content-access-filters.ts';
import type { Prisma } from './prisma.ts';

/** Every field left out does not narrow the search. */
export interface IssueSearchFilter {
  reader: ContentReader;
  /** Only the issues of this repository. */
  repoId?: number;
  ownerId?: number;
  /** Only repositories linked to this team. */
  teamId?: number;
  isClosed?: boolean;
  isPull?: boolean;
  /** Only issues with a label of one of these names. */
  labelNames?: string[];
  /** Only issues with one of these labels. */
  labelIds?: number[];
  milestoneIds?: number[];
  /** A substring of the title, the content or a comment. */
  keyword?: string;
  updatedFrom?: Date;
  updatedTo?: Date;
  posterId?: number;
  assigneeId?: number;
  mentionedIssueIds?: number[];
  /** Pull requests among these (whose review was requested from the viewer). */
  reviewRequestedIssueIds?: number[];
  /** Pull requests among these, not posted by `byUserId` (who reviewed them). */
  reviewed?: { byUserId: number; issueIds: number[] };
}

export function issueSearchWhere(filter: IssueSearchFilter): Prisma.IssueWhereInput {
  return { AND: [visibleIssuesWhere(filter.reader), issueSearchColumnsWhere(filter)] };
}

/** The search without visibility: what a page's candidates are read under (visibility is then checked for them). */
export function issueSearchColumnsWhere(filter: IssueSearchFilter): Prisma.IssueWhereInput {
  const repo: Prisma.RepositoryWhereInput[] = [];
  if (filter.ownerId !== undefined) repo.push({ ownerId: filter.ownerId });
  if (filter.teamId !== undefined) repo.push({ teamRepos: { some: { teamId: filter.teamId } } });
  const and: Prisma.IssueWhereInput[] = repo.length > 0 ? [{ repo: { AND: repo } }] : [];
  if (filter.repoId !== undefined) and.push({ repoId: filter.repoId });
  if (filter.isClosed !== undefined) and.push({ isClosed: filter.isClosed });
  if (filter.isPull !== undefined) and.push({ isPull: filter.isPull });
  if (filter.labelNames) and.push({ labels: { some: { label: { name: { in: filter.labelNames } } } } });
  if (filter.labelIds) and.push({ labels: { some: { labelId: { in: filter.labelIds } } } });
  if (filter.milestoneIds) and.push({ milestoneId: { in: filter.milestoneIds } });
  const keyword = filter.keyword;
  if (keyword !== undefined) {
    and.push({
      OR: [
        { title: { contains: keyword } },
        { content: { contains: keyword } },
        { comments: { some: { content: { contains: keyword } } } },
      ],
    });
  }
  if (filter.updatedFrom) and.push({ updatedAt: { gte: filter.updatedFrom } });
  if (filter.updatedTo) and.push({ updatedAt: { lte: filter.updatedTo } });
  if (filter.posterId !== undefined) and.push({ posterId: filter.posterId });
  if (filter.assigneeId !== undefined) and.push({ assignees: { some: { assigneeId: filter.assigneeId } } });
  if (filter.mentionedIssueIds) and.push({ id: { in: filter.mentionedIssueIds } });
  if (filter.reviewRequestedIssueIds) and.push({ isPull: true, id: { in: filter.reviewRequestedIssueIds } });
  if (filter.reviewed)
    and.push({ isPull: true, posterId: { not: filter.reviewed.byUserId }, id: { in: filter.reviewed.issueIds } });
  return { AND: and };
}
