// A repository's issue config (`<dir>/ISSUE_TEMPLATE/config.yaml`; Forgejo: modules/issue/template, services/issue
// template.go): whether blank issues are allowed and the contact links shown beside the templates.
import type * as YAML from 'yaml';

export interface IssueConfig {
  blank_issues_enabled: boolean;
  contact_links: Array<{ name: string; url: string; about: string }>;
}

export const DEFAULT_ISSUE_CONFIG: IssueConfig = { blank_issues_enabled: true, contact_links: [] };

/** Where Forgejo looks, in order; each with `.yaml`, then `.yml`. */
export const ISSUE_CONFIG_PATHS = ['.forgejo', '.gitea', '.github'].flatMap((dir) =>
  ['ISSUE_TEMPLATE', 'issue_template'].flatMap((sub) => [`${dir}/${sub}/config.yaml`, `${dir}/${sub}/config.yml`]),
);

export class IssueConfigError extends Error {}

/** Parses and validates a config file; an empty file is the default. */
export function parseIssueConfig(text: string): IssueConfig {
  let data: unknown;
  try {
    data = (require('yaml') as typeof YAML).parse(text);
  } catch (error) {
    throw new IssueConfigError(`invalid YAML: ${(error as Error).message}`);
  }
  if (data === null || data === undefined) return DEFAULT_ISSUE_CONFIG;
  if (typeof data !== 'object' || Array.isArray(data)) throw new IssueConfigError('the config must be a mapping');
  const { blank_issues_enabled: blank = true, contact_links: links = [] } = data as Record<string, unknown>;
  if (typeof blank !== 'boolean') throw new IssueConfigError('blank_issues_enabled must be a boolean');
  if (!Array.isArray(links)) throw new IssueConfigError('contact_links must be a list');
  const contactLinks = links.map((link: unknown, i) => {
    const { name, url, about = '' } = (link ?? {}) as Record<string, unknown>;
    if (typeof name !== 'string' || name === '') throw new IssueConfigError(`contact_links[${i}]: name is required`);
    if (typeof url !== 'string' || !URL.canParse(url) || !/^https?:/.test(url))
      throw new IssueConfigError(`contact_links[${i}]: url must be an http(s) URL`);
    if (typeof about !== 'string') throw new IssueConfigError(`contact_links[${i}]: about must be text`);
    return { name, url, about };
  });
  return { blank_issues_enabled: blank, contact_links: contactLinks };
}
