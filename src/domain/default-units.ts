// The units a new repository gets, with Forgejo's default settings for issues and pull requests.
import { UnitType } from './access/modes.ts';

export const DEFAULT_ISSUES_CONFIG = {
  enable_time_tracker: true,
  allow_only_contributors_to_track_time: true,
  enable_issue_dependencies: true,
};
export const DEFAULT_PULLS_CONFIG = {
  ignore_whitespace_conflicts: false,
  allow_merge_commits: true,
  allow_rebase: true,
  allow_rebase_explicit: true,
  allow_squash_merge: true,
  allow_fast_forward_only_merge: true,
  allow_rebase_update: true,
  default_delete_branch_after_merge: false,
  default_merge_style: 'merge',
  default_update_style: 'merge',
  default_allow_maintainer_edit: false,
};
export const DEFAULT_UNITS: ReadonlyArray<{ type: number; config: object }> = [
  { type: UnitType.code, config: {} },
  { type: UnitType.issues, config: DEFAULT_ISSUES_CONFIG },
  { type: UnitType.pulls, config: DEFAULT_PULLS_CONFIG },
  { type: UnitType.releases, config: {} },
  { type: UnitType.wiki, config: {} },
  { type: UnitType.projects, config: {} },
  { type: UnitType.packages, config: {} },
  { type: UnitType.actions, config: {} },
];
