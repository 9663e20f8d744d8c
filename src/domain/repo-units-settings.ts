// What a repository edit may put into its units' settings, checked before anything is stored
// (Forgejo: routers/api/v1/repo/repo.go updateRepoUnits, modules/validation/helpers.go, the binding rules of
// modules/structs/repo.go EditRepoOption). Messages are Forgejo's.

export const MERGE_STYLES = ['merge', 'rebase', 'rebase-merge', 'squash', 'fast-forward-only'] as const;
export const UPDATE_STYLES = ['merge', 'rebase'] as const;

/** The placeholders an external tracker format may use; each stands for a path-safe value. */
const TRACKER_PLACEHOLDERS: Record<string, string> = { user: 'user', repo: 'repo', index: '1' };

export interface RepoUnitsSettingsEdit {
  has_issues?: boolean;
  external_tracker?: { external_tracker_url?: string; external_tracker_format?: string };
  has_wiki?: boolean;
  external_wiki?: { external_wiki_url?: string };
  default_merge_style?: unknown;
  default_update_style?: unknown;
}

function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * An absolute http(s) URL with a host that points away from this server: not a loopback address and not
 * this instance's own API (Forgejo's IsValidExternalURL).
 */
export function isValidExternalUrl(value: string, rootUrl: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (url.hostname === '' || /\s/.test(value)) return false;
  if (isLoopbackHost(url.hostname)) return false;
  return !value.toLowerCase().startsWith(`${rootUrl}api`.toLowerCase());
}

/**
 * A tracker URL format uses only `{user}`, `{repo}` and `{index}`, every brace closed, and reads as an
 * external URL once they are filled in.
 */
export function isValidExternalTrackerFormat(format: string, rootUrl: string): boolean {
  let filled = '';
  let rest = format;
  while (rest.length > 0) {
    const brace = rest.search(/[{}]/);
    if (brace < 0) {
      filled += rest;
      break;
    }
    if (rest[brace] === '}') return false;
    const placeholder = /^\{(\w+)\}/.exec(rest.slice(brace));
    if (!placeholder || !Object.hasOwn(TRACKER_PLACEHOLDERS, placeholder[1])) return false;
    filled += rest.slice(0, brace) + TRACKER_PLACEHOLDERS[placeholder[1]];
    rest = rest.slice(brace + placeholder[0].length);
  }
  return isValidExternalUrl(filled, rootUrl);
}

function isOneOf(value: unknown, allowed: readonly string[]): boolean {
  return typeof value === 'string' && allowed.includes(value);
}

/**
 * Why the unit settings of an edit are refused, or null when they are acceptable. The external tracker and
 * wiki are checked only when the edit switches to them, as Forgejo checks them only then.
 */
export function repoUnitsSettingsProblem(edit: RepoUnitsSettingsEdit, rootUrl: string): string | null {
  if (edit.default_merge_style !== undefined && !isOneOf(edit.default_merge_style, MERGE_STYLES))
    return '[DefaultMergeStyle]: In';
  if (edit.default_update_style !== undefined && !isOneOf(edit.default_update_style, UPDATE_STYLES))
    return '[DefaultUpdateStyle]: In';
  const tracker = edit.has_issues === true ? edit.external_tracker : undefined;
  if (tracker) {
    if (!isValidExternalUrl(tracker.external_tracker_url ?? '', rootUrl)) return 'External tracker URL not valid';
    const format = tracker.external_tracker_format ?? '';
    if (format !== '' && !isValidExternalTrackerFormat(format, rootUrl)) return 'External tracker URL format not valid';
  }
  const wiki = edit.has_wiki === true ? edit.external_wiki : undefined;
  if (wiki && !isValidExternalUrl(wiki.external_wiki_url ?? '', rootUrl)) return 'Invalid external wiki URL';
  return null;
}
