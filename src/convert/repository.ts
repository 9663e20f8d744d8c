// Forgejo's Repository record (services/convert/repository.go).
import type { components } from '../../generated/api.d.ts';
import type { RepositoryDetails } from '../db/repository-details.ts';
import type { Models, Repository } from '../db/prisma.ts';
import { AccessMode, UnitType, Visibility } from '../domain/access/modes.ts';
import { unitMode } from '../domain/access/repo-permission.ts';
import { repositorySettings } from '../domain/repository-settings.ts';
import { isoTime } from './time.ts';
import { toUser, type UserView } from './user.ts';

export type ApiRepository = components['schemas']['Repository'];

export function unitConfig(units: readonly Models.RepoUnitModel[], type: number): Record<string, unknown> | undefined {
  const unit = units.find((u) => u.type === type);
  if (!unit) return undefined;
  try {
    return JSON.parse(unit.config) as Record<string, unknown>;
  } catch {
    return {};
  }
}

export function repoApiUrl(rootUrl: string, repo: Pick<Repository, 'ownerName' | 'name'>): string {
  return `${rootUrl}api/v1/repos/${repo.ownerName}/${repo.name}`;
}

/** Go's time.Duration text (8h0m0s), which Forgejo shows as mirror_interval. */
export function goDuration(seconds: number): string {
  if (seconds === 0) return '0s';
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  if (h > 0) return `${h}h${m}m${s}s`;
  if (m > 0) return `${m}m${s}s`;
  return `${s}s`;
}

const bool = (value: unknown, fallback = false) => (typeof value === 'boolean' ? value : fallback);
const text = (value: unknown, fallback = '') => (typeof value === 'string' ? value : fallback);

export function toRepository(details: RepositoryDetails, view: UserView): ApiRepository {
  const { repo, permission, mirror } = details;
  const { rootUrl } = view;
  const units = repo.units;
  const settings = repositorySettings(repo);
  const apiUrl = repoApiUrl(rootUrl, repo);
  const htmlUrl = `${rootUrl}${repo.ownerName}/${repo.name}`;

  const issues = unitConfig(units, UnitType.issues);
  const extIssues = issues ? undefined : unitConfig(units, UnitType.extIssues);
  const wiki = unitConfig(units, UnitType.wiki);
  const extWiki = wiki ? undefined : unitConfig(units, UnitType.extWiki);
  const pulls = unitConfig(units, UnitType.pulls);
  let topics: string[];
  try {
    topics = JSON.parse(repo.topics) as string[];
  } catch {
    topics = [];
  }

  const result: ApiRepository = {
    id: repo.id,
    owner: toUser(repo.owner, view),
    name: repo.name,
    full_name: `${repo.ownerName}/${repo.name}`,
    description: repo.description,
    empty: repo.isEmpty,
    private: repo.isPrivate,
    fork: repo.isFork,
    template: repo.isTemplate,
    mirror: repo.isMirror,
    size: Math.floor(Number(repo.size) / 1024),
    language: '',
    languages_url: `${apiUrl}/languages`,
    html_url: htmlUrl,
    url: apiUrl,
    link: '',
    ssh_url: '',
    clone_url: `${htmlUrl}.git`,
    original_url: repo.originalUrl,
    website: repo.website,
    stars_count: repo.numStars,
    forks_count: repo.numForks,
    watchers_count: repo.numWatches,
    open_issues_count: repo.numIssues - repo.numClosedIssues,
    open_pr_counter: repo.numPulls - repo.numClosedPulls,
    release_counter: details.releaseCount ?? 0,
    default_branch: repo.defaultBranch,
    archived: repo.isArchived,
    created_at: isoTime(repo.createdAt),
    updated_at: isoTime(repo.updatedAt),
    archived_at: isoTime(repo.archivedAt),
    permissions: {
      admin: permission.mode >= AccessMode.admin,
      push: unitMode(permission, UnitType.code) >= AccessMode.write,
      pull: unitMode(permission, UnitType.code) >= AccessMode.read,
    },
    has_issues: issues !== undefined || extIssues !== undefined,
    has_wiki: wiki !== undefined || extWiki !== undefined,
    globally_editable_wiki: false,
    has_pull_requests: pulls !== undefined,
    has_projects: units.some((u) => u.type === UnitType.projects),
    has_releases: units.some((u) => u.type === UnitType.releases),
    has_packages: units.some((u) => u.type === UnitType.packages),
    has_actions: units.some((u) => u.type === UnitType.actions),
    ignore_whitespace_conflicts: bool(pulls?.ignore_whitespace_conflicts),
    allow_merge_commits: bool(pulls?.allow_merge_commits),
    allow_rebase: bool(pulls?.allow_rebase),
    allow_rebase_explicit: bool(pulls?.allow_rebase_explicit),
    allow_squash_merge: bool(pulls?.allow_squash_merge),
    allow_fast_forward_only_merge: bool(pulls?.allow_fast_forward_only_merge),
    allow_rebase_update: bool(pulls?.allow_rebase_update),
    default_delete_branch_after_merge: bool(pulls?.default_delete_branch_after_merge),
    default_merge_style: text(pulls?.default_merge_style, 'merge'),
    default_update_style: text(pulls?.default_update_style, 'merge'),
    default_allow_maintainer_edit: bool(pulls?.default_allow_maintainer_edit),
    // Uploaded avatars share the owners' store and its /avatars/{hash} route.
    avatar_url: repo.avatar ? `${rootUrl}avatars/${repo.avatar}` : '',
    internal: !repo.isPrivate && repo.owner.visibility === Visibility.private,
    mirror_interval: repo.isMirror && mirror ? goDuration(mirror.intervalSecs) : '',
    mirror_updated: isoTime(repo.isMirror && mirror ? mirror.updatedAt : null),
    topics,
    object_format_name: settings.objectFormat ?? 'sha1',
    wiki_branch: settings.wikiBranch ?? repo.defaultBranch,
  };
  if (issues) {
    result.internal_tracker = {
      enable_time_tracker: bool(issues.enable_time_tracker, true),
      allow_only_contributors_to_track_time: bool(issues.allow_only_contributors_to_track_time, true),
      enable_issue_dependencies: bool(issues.enable_issue_dependencies, true),
    };
  }
  if (extIssues) {
    result.external_tracker = {
      external_tracker_url: text(extIssues.external_tracker_url),
      external_tracker_format: text(extIssues.external_tracker_format),
      external_tracker_style: text(extIssues.external_tracker_style),
      external_tracker_regexp_pattern: text(extIssues.external_tracker_regexp_pattern),
    };
  }
  if (extWiki) result.external_wiki = { external_wiki_url: text(extWiki.external_wiki_url) };
  return result;
}
