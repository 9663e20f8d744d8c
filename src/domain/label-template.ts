// The two formats of label template files (Forgejo: modules/label/parser.go). YAML: `labels:` with items
// {name, color, description?, exclusive?}, name and color required. Legacy: one label a line,
// `#rrggbb name ; description`.
import type * as YAML from 'yaml';
import { normaliseLabelColor } from './label.ts';

export interface TemplateLabel {
  name: string;
  /** `#rrggbb`, lower case. */
  color: string;
  description: string;
  exclusive: boolean;
}

export class LabelTemplateError extends Error {}

export function parseLabelTemplate(fileName: string, text: string): TemplateLabel[] {
  return /\.ya?ml$/.test(fileName) ? parseYamlTemplate(fileName, text) : parseLineTemplate(fileName, text);
}

function parseYamlTemplate(fileName: string, text: string): TemplateLabel[] {
  let document: unknown;
  try {
    // Every scalar as written: a colour such as 001122 must not become the number 1122.
    document = (require('yaml') as typeof YAML).parse(text, { schema: 'failsafe' });
  } catch (error) {
    throw new LabelTemplateError(`${fileName}: ${(error as Error).message}`);
  }
  const items = (document as { labels?: unknown } | null)?.labels ?? [];
  if (!Array.isArray(items)) throw new LabelTemplateError(`${fileName}: "labels" is not a list`);
  return items.map((item: unknown, index) => {
    const fields = (item ?? {}) as Record<string, unknown>;
    const name = typeof fields.name === 'string' ? fields.name.trim() : '';
    const rawColor = typeof fields.color === 'string' ? fields.color : '';
    if (!name || !rawColor.trim())
      throw new LabelTemplateError(`${fileName}: label ${index + 1} needs a name and a color`);
    const color = normaliseLabelColor(rawColor);
    if (!color) throw new LabelTemplateError(`${fileName}: bad color "${rawColor}" of label ${name}`);
    const description = typeof fields.description === 'string' ? fields.description.trim() : '';
    return { name, color, description, exclusive: /^(true|True|TRUE)$/.test(String(fields.exclusive)) };
  });
}

function parseLineTemplate(fileName: string, text: string): TemplateLabel[] {
  const labels: TemplateLabel[] = [];
  for (const rawLine of text.split('\n')) {
    const line = rawLine.trim();
    if (!line) continue;
    const semicolon = line.indexOf(';');
    const head = semicolon < 0 ? line : line.slice(0, semicolon);
    const space = head.indexOf(' ');
    const name = space < 0 ? '' : head.slice(space + 1).trim();
    if (!name) throw new LabelTemplateError(`${fileName}: malformed line "${line}"`);
    const color = normaliseLabelColor(head.slice(0, space));
    if (!color) throw new LabelTemplateError(`${fileName}: bad color in line "${line}"`);
    const description = semicolon < 0 ? '' : line.slice(semicolon + 1).trim();
    labels.push({ name, color, description, exclusive: false });
  }
  return labels;
}
