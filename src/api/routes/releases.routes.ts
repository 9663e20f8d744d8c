// Routes for releases and their attachments (Forgejo: routers/api/v1/api.go, the /releases group): readers of
// releases read; writers of releases, signed in, write into a repository that is not archived; uploads are counted
// against the owner's quota for release attachments.
import { repoAssignment } from '../assignment.ts';
import { mustNotBeArchived, reqRepoReader, reqRepoWriter, reqToken } from '../guards.ts';
import {
  repoCreateRelease,
  repoCreateReleaseAttachment,
  repoDeleteRelease,
  repoDeleteReleaseAttachment,
  repoDeleteReleaseByTag,
  repoDownloadReleaseAttachment,
  repoEditRelease,
  repoEditReleaseAttachment,
  repoGetLatestRelease,
  repoGetRelease,
  repoGetReleaseAttachment,
  repoGetReleaseByTag,
  repoListReleaseAttachments,
  repoListReleases,
} from '../handlers/repo/release.ts';
import { enforceQuota } from '../quota-guard.ts';
import { route, type RouteGroup } from '../route.ts';
import { UnitType } from '../../domain/access/modes.ts';

export type ReleasesOperation =
  | 'repoCreateRelease'
  | 'repoCreateReleaseAttachment'
  | 'repoDeleteRelease'
  | 'repoDeleteReleaseAttachment'
  | 'repoDeleteReleaseByTag'
  | 'repoDownloadReleaseAttachment'
  | 'repoEditRelease'
  | 'repoEditReleaseAttachment'
  | 'repoGetLatestRelease'
  | 'repoGetRelease'
  | 'repoGetReleaseAttachment'
  | 'repoGetReleaseByTag'
  | 'repoListReleaseAttachments'
  | 'repoListReleases';

const reader = [repoAssignment(), reqRepoReader(UnitType.releases)];
const writer = [...reader, reqToken(), reqRepoWriter(UnitType.releases), mustNotBeArchived()];
const uploader = [...writer, enforceQuota('size:assets:attachments:releases', 'repo')];

export const releasesRoutes: RouteGroup<ReleasesOperation> = {
  repoCreateRelease: route(writer, repoCreateRelease),
  repoCreateReleaseAttachment: route(uploader, repoCreateReleaseAttachment),
  repoDeleteRelease: route(writer, repoDeleteRelease),
  repoDeleteReleaseAttachment: route(writer, repoDeleteReleaseAttachment),
  repoDeleteReleaseByTag: route(writer, repoDeleteReleaseByTag),
  repoDownloadReleaseAttachment: route(reader, repoDownloadReleaseAttachment),
  repoEditRelease: route(writer, repoEditRelease),
  repoEditReleaseAttachment: route(uploader, repoEditReleaseAttachment),
  repoGetLatestRelease: route(reader, repoGetLatestRelease),
  repoGetRelease: route(reader, repoGetRelease),
  repoGetReleaseAttachment: route(reader, repoGetReleaseAttachment),
  repoGetReleaseByTag: route(reader, repoGetReleaseByTag),
  repoListReleaseAttachments: route(reader, repoListReleaseAttachments),
  repoListReleases: route(reader, repoListReleases),
};
