// The rule of src/domain/access/content-visibility.ts as Prisma filters: issues, feed entries and notification threads
// show only where the viewer reads their unit (or sees the repository, for what is about the repository itself).
// Every list and count applies them in its own query, so pages and X-Total-Count count only what may be seen.
import { opTypeNumber } from '../domain/activity.ts';
import { UnitType } from '../domain/access/modes.ts';
import {
  ACTIVITY_OPS_BY_UNIT,
  type ContentUnit,
  NOTIFICATION_SOURCES_BY_UNIT,
} from '../domain/access/content-visibility.ts';
import type { Viewer } from '../domain/access/owner-visibility.ts';
import { readableRepositoriesWhere, unitReadableRepositoriesWhere } from './access-filters.ts';
import type { Prisma } from './prisma.ts';

/** Who reads: the viewer (null when anonymous) and whether its token is limited to public repositories. */
export interface ContentReader {
  viewer: Viewer | null;
  publicOnly: boolean;
}

/** The repositories where the reader sees content of `unit`. */
export function contentRepositoriesWhere(reader: ContentReader, unit: ContentUnit): Prisma.RepositoryWhereInput {
  return unit === 'repository'
    ? readableRepositoriesWhere(reader.viewer, reader.publicOnly)
    : unitReadableRepositoriesWhere(reader.viewer, unit, reader.publicOnly);
}

export function visibleIssuesWhere(reader: ContentReader): Prisma.IssueWhereInput {
  return {
    OR: [
      { isPull: false, repo: contentRepositoriesWhere(reader, UnitType.issues) },
      { isPull: true, repo: contentRepositoriesWhere(reader, UnitType.pulls) },
    ],
  };
}

export function visibleActionsWhere(reader: ContentReader): Prisma.ActionWhereInput {
  const unitOps = [...ACTIVITY_OPS_BY_UNIT.values()].flat().map(opTypeNumber);
  return {
    OR: [
      ...[...ACTIVITY_OPS_BY_UNIT].map(([unit, ops]) => ({
        opType: { in: ops.map(opTypeNumber) },
        repo: contentRepositoriesWhere(reader, unit),
      })),
      { opType: { notIn: unitOps }, repo: contentRepositoriesWhere(reader, 'repository') },
    ],
  };
}

export function visibleNotificationsWhere(reader: ContentReader): Prisma.NotificationWhereInput {
  const unitSources = [...NOTIFICATION_SOURCES_BY_UNIT.values()].flat();
  return {
    OR: [
      ...[...NOTIFICATION_SOURCES_BY_UNIT].map(([unit, sources]) => ({
        source: { in: [...sources] },
        repo: contentRepositoriesWhere(reader, unit),
      })),
      { source: { notIn: unitSources }, repo: contentRepositoriesWhere(reader, 'repository') },
    ],
  };
}
