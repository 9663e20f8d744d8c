// A cookbook's metadata.json, as knife writes it into the tarball it shares (docs.chef.io "metadata.rb"; Forgejo:
// modules/packages/chef/metadata.go): the name and version checked (400), and the fields the supermarket API
// answers with kept as the version's metadata.
import { BadRequestError } from '../../domain/errors.ts';

/** A name that is one path segment of the API's URLs (Chef's own names are letters, digits, `_`, `-` and `.`). */
const NAME = /^[A-Za-z0-9_][\w.-]{0,254}$/;
/** Chef's version form: two or three numbers. */
const VERSION = /^\d+\.\d+(?:\.\d+)?$/;

/** What the registry keeps of a cookbook version. */
export interface ChefMetadata {
  description: string;
  long_description: string;
  /** metadata.json's `maintainer`. */
  author: string;
  license: string;
  /** metadata.json's `source_url`, when it is an http(s) address. */
  repository_url: string;
  /** Cookbook name to version constraint. */
  dependencies: Record<string, string>;
}

export interface ChefCookbook {
  name: string;
  version: string;
  metadata: ChefMetadata;
}

const invalid = (why: string) => new BadRequestError(`the cookbook is invalid: ${why}`);

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

function dependencies(value: unknown): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw invalid('dependencies is not a map');
  const found: Record<string, string> = {};
  for (const [name, constraint] of Object.entries(value as Record<string, unknown>)) {
    if (typeof constraint !== 'string') throw invalid(`the dependency ${name} has no version constraint`);
    found[name] = constraint;
  }
  return found;
}

function httpUrl(value: unknown): string {
  const candidate = text(value);
  try {
    return ['http:', 'https:'].includes(new URL(candidate).protocol) ? candidate : '';
  } catch {
    return '';
  }
}

export function parseChefMetadata(json: string): ChefCookbook {
  let document: unknown;
  try {
    document = JSON.parse(json);
  } catch (error) {
    throw invalid(`metadata.json is not valid JSON (${(error as Error).message})`);
  }
  if (!document || typeof document !== 'object' || Array.isArray(document)) throw invalid('metadata.json is not a map');
  const fields = document as Record<string, unknown>;
  const { name, version } = fields;
  if (typeof name !== 'string' || !NAME.test(name)) throw invalid('the name is invalid');
  if (typeof version !== 'string' || !VERSION.test(version)) throw invalid('the version is invalid');
  return {
    name,
    version,
    metadata: {
      description: text(fields.description),
      long_description: text(fields.long_description),
      author: text(fields.maintainer),
      license: text(fields.license),
      repository_url: httpUrl(fields.source_url),
      dependencies: dependencies(fields.dependencies),
    },
  };
}
