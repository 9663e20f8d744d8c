// Issue templates of a repository (Forgejo: modules/issue/template): Markdown files with a front matter, and YAML
// issue forms, in the template folders of the default branch. A template that does not parse or lacks its name
// or description is left out, as Forgejo's API does.
import type * as YAML from 'yaml';

export const ISSUE_TEMPLATE_DIRS = ['.forgejo', '.gitea', '.github', '.gitlab'].flatMap((dir) => [
  `${dir}/ISSUE_TEMPLATE`,
  `${dir}/issue_template`,
]);

export interface IssueTemplate {
  name: string;
  title: string;
  about: string;
  labels: string[];
  ref: string;
  content: string;
  body: Array<Record<string, unknown>>;
  file_name: string;
}

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/;

function labelsOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  if (typeof value === 'string')
    return value
      .split(',')
      .map((label) => label.trim())
      .filter(Boolean);
  return [];
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** Whether a file of a template folder is a template (the config file is not). */
export function isTemplateFile(name: string): boolean {
  return /\.(md|ya?ml)$/i.test(name) && !/^config\.ya?ml$/i.test(name);
}

/** The template in a file, or null when it is not a valid one. */
export function parseIssueTemplate(fileName: string, source: string): IssueTemplate | null {
  try {
    if (/\.md$/i.test(fileName)) {
      const match = FRONT_MATTER.exec(source);
      const meta = (match ? (require('yaml') as typeof YAML).parse(match[1]) : null) as Record<string, unknown> | null;
      if (!meta || !text(meta.name) || !text(meta.about)) return null;
      return {
        name: text(meta.name),
        title: text(meta.title),
        about: text(meta.about),
        labels: labelsOf(meta.labels),
        ref: text(meta.ref),
        content: match![2],
        body: [],
        file_name: fileName,
      };
    }
    const form = (require('yaml') as typeof YAML).parse(source) as Record<string, unknown> | null;
    if (!form || !text(form.name) || !text(form.description) || !Array.isArray(form.body) || form.body.length === 0)
      return null;
    return {
      name: text(form.name),
      title: text(form.title),
      about: text(form.description),
      labels: labelsOf(form.labels),
      ref: text(form.ref),
      content: '',
      body: form.body.filter((field): field is Record<string, unknown> => typeof field === 'object' && field !== null),
      file_name: fileName,
    };
  } catch {
    return null;
  }
}
