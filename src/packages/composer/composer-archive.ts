// A Composer package archive (a zip with composer.json at its root, as `composer archive` makes it), read for what
// the repository serves: name, version and type, and the fields of composer.json that Composer resolves and
// installs with (Forgejo: modules/packages/composer/metadata.go), plus the README's start for the web view.
import { BadRequestError } from '../../domain/errors.ts';
import { UploadedZip } from '../core/uploaded-zip.ts';
import { isValidComposerName, isValidComposerVersion } from './composer-names.ts';

const MAX_INFLATED = 1024 * 1024 * 1024;
const MAX_ENTRIES = 100_000;
/** composer.json is kept in the database: far more than any real one, far less than a hostile one. */
export const MAX_COMPOSER_JSON = 1024 * 1024;
const MAX_README = 10 * 1024;

/** What a version keeps of composer.json (its `metadataJson`). */
export interface ComposerMetadata {
  type: string;
  description?: string;
  readme?: string;
  keywords?: string[];
  homepage?: string;
  license?: string[];
  authors?: { name?: string; email?: string; homepage?: string; role?: string }[];
  bin?: string[];
  autoload?: Record<string, unknown>;
  'autoload-dev'?: Record<string, unknown>;
  extra?: Record<string, unknown>;
  require?: Record<string, string>;
  'require-dev'?: Record<string, string>;
  suggest?: Record<string, string>;
  provide?: Record<string, string>;
  conflict?: Record<string, string>;
  replace?: Record<string, string>;
  _comment?: string[];
}

export interface ComposerArchive {
  name: string;
  version: string;
  metadata: ComposerMetadata;
}

type Json = Record<string, unknown>;

const bad = (message: string) => new BadRequestError(message);
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function stringList(json: Json, key: string): string[] | undefined {
  const value = json[key];
  if (value === undefined) return undefined;
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || !list.every((item) => typeof item === 'string')) {
    throw bad(`composer.json: "${key}" must be a string or a list of strings`);
  }
  return list;
}

function links(json: Json, key: string): Record<string, string> | undefined {
  const value = json[key];
  if (value === undefined) return undefined;
  if (!isObject(value) || !Object.values(value).every((item) => typeof item === 'string')) {
    throw bad(`composer.json: "${key}" must map package names to constraints`);
  }
  return value as Record<string, string>;
}

function object(json: Json, key: string): Record<string, unknown> | undefined {
  const value = json[key];
  if (value === undefined) return undefined;
  if (!isObject(value)) throw bad(`composer.json: "${key}" must be an object`);
  return value;
}

function text(json: Json, key: string): string | undefined {
  const value = json[key];
  return typeof value === 'string' ? value : undefined;
}

function httpUrl(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol) ? value : undefined;
  } catch {
    return undefined;
  }
}

function authors(json: Json): ComposerMetadata['authors'] {
  const value = json.authors;
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every(isObject)) throw bad('composer.json: "authors" must be a list of objects');
  return value.map((author) => ({
    ...(text(author, 'name') === undefined ? {} : { name: text(author, 'name') }),
    ...(text(author, 'email') === undefined ? {} : { email: text(author, 'email') }),
    ...(text(author, 'homepage') === undefined ? {} : { homepage: text(author, 'homepage') }),
    ...(text(author, 'role') === undefined ? {} : { role: text(author, 'role') }),
  }));
}

/** The metadata of composer.json, its undefined fields left out. */
function metadataOf(json: Json): Omit<ComposerMetadata, 'readme'> {
  const metadata: Omit<ComposerMetadata, 'readme'> = {
    type: text(json, 'type') || 'library',
    description: text(json, 'description'),
    keywords: stringList(json, 'keywords'),
    homepage: httpUrl(text(json, 'homepage')),
    license: stringList(json, 'license'),
    authors: authors(json),
    bin: stringList(json, 'bin'),
    autoload: object(json, 'autoload'),
    'autoload-dev': object(json, 'autoload-dev'),
    extra: object(json, 'extra'),
    require: links(json, 'require'),
    'require-dev': links(json, 'require-dev'),
    suggest: links(json, 'suggest'),
    provide: links(json, 'provide'),
    conflict: links(json, 'conflict'),
    replace: links(json, 'replace'),
    _comment: stringList(json, '_comment'),
  };
  return Object.fromEntries(Object.entries(metadata).filter(([, value]) => value !== undefined)) as typeof metadata;
}

/** Reads the archive at `file`; `version` is used when composer.json names none. 400 for anything amiss. */
export async function readComposerArchive(file: string, version: string | undefined): Promise<ComposerArchive> {
  const zip = await UploadedZip.open(file, { maxEntries: MAX_ENTRIES, maxTotalBytes: MAX_INFLATED });
  try {
    if (!zip.has('composer.json')) throw bad('the archive has no composer.json at its root');
    const raw = await zip.read(
      'composer.json',
      MAX_COMPOSER_JSON,
      `composer.json is larger than ${MAX_COMPOSER_JSON} bytes`,
    );
    let json: unknown;
    try {
      json = JSON.parse(raw.toString('utf8'));
    } catch {
      throw bad('composer.json is not valid JSON');
    }
    if (!isObject(json)) throw bad('composer.json is not a JSON object');
    const name = text(json, 'name') ?? '';
    if (!isValidComposerName(name)) throw bad(`"${name}" is not a valid package name (vendor/project, lower case)`);
    const chosen = text(json, 'version') || version || '';
    if (!isValidComposerVersion(chosen)) throw bad(`"${chosen}" is not a valid version`);
    const readmePath = text(json, 'readme') || 'README.md';
    const readme =
      zip.members().find((member) => member.name === readmePath && member.size <= MAX_README) === undefined
        ? undefined
        : (await zip.read(readmePath, MAX_README)).toString('utf8');
    return { name, version: chosen, metadata: { ...metadataOf(json), ...(readme ? { readme } : {}) } };
  } finally {
    zip.close();
  }
}
