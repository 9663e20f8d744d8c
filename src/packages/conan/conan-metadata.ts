// What Anvil reads from a recipe's conanfile.py and a binary package's conaninfo.txt (Forgejo:
// modules/packages/conan conanfile_parser.go, conaninfo_parser.go): the recipe's class attributes the package pages
// show (author, license, homepage, url, description, topics), found by pattern since the file is Python; and the
// sections of conaninfo.txt that `conan search` answers for each binary package.
import { BadRequestError } from '../../domain/errors.ts';

/** The version's metadata (Forgejo's Conan Metadata). */
export interface ConanMetadata {
  author?: string;
  license?: string;
  project_url?: string;
  repository_url?: string;
  description?: string;
  keywords?: string[];
}

/** A binary package's conaninfo.txt, as the search answers carry it. */
export interface ConanInfo {
  settings: Record<string, string>;
  full_settings: Record<string, string>;
  requires: string[];
  full_requires: string[];
  options: Record<string, string>;
  full_options: Record<string, string>;
  recipe_hash: string;
  environment: Record<string, string[]>;
}

/** `name = "value"`, `name = 'value'` or `name = ("value", …)` at the start of a line. */
function attribute(text: string, name: string): string | undefined {
  const found = new RegExp(`^\\s*${name}\\s*=\\s*['"(](.+)['")]`, 'im').exec(text);
  return found?.[1] || undefined;
}

export function parseConanfile(text: string): ConanMetadata {
  const metadata: ConanMetadata = {};
  const set = (key: Exclude<keyof ConanMetadata, 'keywords'>, value: string | undefined) => {
    if (value !== undefined) metadata[key] = value;
  };
  set('author', attribute(text, 'author'));
  set('project_url', attribute(text, 'homepage'));
  set('repository_url', attribute(text, 'url'));
  set('license', attribute(text, 'license')?.replace(/['"]/g, ''));
  set('description', attribute(text, 'description'));
  const topics = /^\s*topics\s*=\s*\((.+)\)/im.exec(text)?.[1];
  if (topics) {
    const keywords = [...topics.matchAll(/\s*['"](.+?)['"]\s*,?/g)].map((match) => match[1]);
    if (keywords.length > 0) metadata.keywords = keywords;
  }
  return metadata;
}

function sections(text: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  let current: string[] | null = null;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith('[') && line.endsWith(']')) {
      current = [];
      found.set(line.slice(1, -1), current);
    } else if (line !== '') {
      if (!current) throw new BadRequestError('invalid conaninfo.txt: a line before the first section');
      current.push(line);
    }
  }
  return found;
}

function pairs(lines: string[] = []): Record<string, string> {
  const result: Record<string, string> = {};
  for (const line of lines) {
    const at = line.indexOf('=');
    if (at > 0 && at < line.length - 1) result[line.slice(0, at)] = line.slice(at + 1);
  }
  return result;
}

function listPairs(lines: string[] = []): Record<string, string[]> {
  const result: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(pairs(lines)))
    result[name] = value.startsWith('[') && value.endsWith(']') ? value.split(',') : [value];
  return result;
}

export function parseConaninfo(text: string): ConanInfo {
  const found = sections(text);
  return {
    settings: pairs(found.get('settings')),
    full_settings: pairs(found.get('full_settings')),
    requires: found.get('requires') ?? [],
    full_requires: found.get('full_requires') ?? [],
    options: pairs(found.get('options')),
    full_options: pairs(found.get('full_options')),
    recipe_hash: found.get('recipe_hash')?.[0] ?? '',
    environment: listPairs(found.get('env')),
  };
}
