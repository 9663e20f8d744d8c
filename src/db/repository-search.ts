// The repository search of GET /repos/search and GET /orgs/{org}/repos as a plain filter, and the Prisma query it
// becomes (Forgejo: models/repo/repo_list.go SearchRepositoryCondition). The service decides the filter.
import { Visibility } from '../domain/access/modes.ts';
import { ORG_TYPE, type Viewer } from '../domain/access/owner-visibility.ts';
import { readableRepositoriesWhere } from './access-filters.ts';
import type { Prisma } from './prisma.ts';
import type { DatabaseTarget } from '../infra/database/target.ts';

/** How the searching user relates to the repositories of `member`. */
export type MemberRelation = 'owned' | 'collaborated' | 'either';

export interface RepoSearchKeywords {
  /** Lower-case words: each matches a name substring, a topic, `owner/name`, or the description. */
  words: string[];
  /** Match topics exactly and nothing else. */
  topicOnly: boolean;
  includeDescription: boolean;
  /** Whether `owner/name` words match the owner's name too. */
  ownerSlashName: boolean;
}

/** Every field left out does not narrow the search. */
export interface RepoSearchFilter {
  /** Only what this viewer can read (with a public-only token: public repositories of public owners). */
  readableBy?: { viewer: Viewer | null; publicOnly: boolean };
  /** Only public repositories of public owners. */
  publicOnly?: boolean;
  ownerId?: number;
  ownerIdNot?: number;
  isPrivate?: boolean;
  isTemplate?: boolean;
  isArchived?: boolean;
  isFork?: boolean;
  isMirror?: boolean;
  idIn?: number[];
  member?: { userId: number; relation: MemberRelation };
  teamId?: number;
  keywords?: RepoSearchKeywords;
}

const SORTS = {
  alpha: ['ownerName', 'lowerName'],
  created: ['createdAt'],
  updated: ['updatedAt'],
  size: ['size'],
  git_size: ['gitSize'],
  lfs_size: ['lfsSize'],
  id: ['id'],
  stars: ['numStars'],
  forks: ['numForks'],
} as const;
/** `name` is the order when none is asked for, not a mode callers may name. */
const ORDER_COLUMNS = { ...SORTS, name: ['lowerName'] } as const;

/** The orders a search may ask for (Forgejo's names). */
export type RepoSortKey = keyof typeof SORTS;

export function isRepoSortKey(key: string): key is RepoSortKey {
  return Object.hasOwn(SORTS, key);
}

export interface RepoSearchOrder {
  key: RepoSortKey | 'name';
  direction: 'asc' | 'desc';
}

/** The order, then id ascending so pages never overlap. */
export function repoSearchOrderBy(order: RepoSearchOrder): Prisma.RepositoryOrderByWithRelationInput[] {
  const columns: readonly string[] = ORDER_COLUMNS[order.key];
  const orderBy = columns.map((column) => ({ [column]: order.direction }));
  return order.key === 'id' ? orderBy : [...orderBy, { id: 'asc' }];
}

function memberWhere(userId: number, relation: MemberRelation): Prisma.RepositoryWhereInput {
  const owned: Prisma.RepositoryWhereInput = { ownerId: userId };
  const collaborated: Prisma.RepositoryWhereInput = {
    ownerId: { not: userId },
    OR: [
      { collaborators: { some: { userId } } },
      { teamRepos: { some: { team: { members: { some: { userId } } } } } },
      { owner: { type: ORG_TYPE, teams: { some: { includesAllRepositories: true, members: { some: { userId } } } } } },
    ],
  };
  if (relation === 'owned') return owned;
  return relation === 'collaborated' ? collaborated : { OR: [owned, collaborated] };
}

function keywordsWhere(
  keywords: RepoSearchKeywords,
  provider: DatabaseTarget['provider'],
): Prisma.RepositoryWhereInput {
  // SQLite's LIKE is case-insensitive for ASCII; PostgreSQL needs the insensitive mode.
  const insensitive = (word: string): Prisma.StringFilter =>
    provider === 'postgresql' ? ({ contains: word, mode: 'insensitive' } as Prisma.StringFilter) : { contains: word };
  const or: Prisma.RepositoryWhereInput[] = [];
  for (const word of keywords.words) {
    // Topics are stored as a JSON array of lower-case strings.
    or.push(
      keywords.topicOnly
        ? { topics: { contains: JSON.stringify(word) } }
        : { topics: { contains: word.replace(/"/g, '') } },
    );
    if (keywords.topicOnly) continue;
    or.push({ lowerName: { contains: word } });
    if (keywords.ownerSlashName && word.split('/').length === 2) {
      const [owner, name] = word.split('/');
      or.push({ owner: { lowerName: { contains: owner } }, lowerName: { contains: name } });
    }
    if (keywords.includeDescription) or.push({ description: insensitive(word) });
  }
  return { OR: or };
}

export function repoSearchWhere(
  filter: RepoSearchFilter,
  provider: DatabaseTarget['provider'],
): Prisma.RepositoryWhereInput {
  const and: Prisma.RepositoryWhereInput[] = [];
  if (filter.ownerId !== undefined) and.push({ ownerId: filter.ownerId });
  if (filter.ownerIdNot !== undefined) and.push({ ownerId: { not: filter.ownerIdNot } });
  if (filter.readableBy) and.push(readableRepositoriesWhere(filter.readableBy.viewer, filter.readableBy.publicOnly));
  if (filter.publicOnly) and.push({ isPrivate: false, owner: { visibility: Visibility.public } });
  if (filter.isPrivate !== undefined) and.push({ isPrivate: filter.isPrivate });
  if (filter.isTemplate !== undefined) and.push({ isTemplate: filter.isTemplate });
  if (filter.isArchived !== undefined) and.push({ isArchived: filter.isArchived });
  if (filter.idIn) and.push({ id: { in: filter.idIn } });
  if (filter.isFork !== undefined) and.push({ isFork: filter.isFork });
  if (filter.isMirror !== undefined) and.push({ isMirror: filter.isMirror });
  if (filter.member) and.push(memberWhere(filter.member.userId, filter.member.relation));
  if (filter.teamId !== undefined) {
    const teamId = filter.teamId;
    and.push({
      OR: [
        { teamRepos: { some: { teamId } } },
        { owner: { teams: { some: { id: teamId, includesAllRepositories: true } } } },
      ],
    });
  }
  if (filter.keywords) and.push(keywordsWhere(filter.keywords, provider));
  return { AND: and };
}
