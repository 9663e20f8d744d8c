// The JSON `cargo publish` sends before the .crate (Cargo's registry web API, "Publish"), read into what a version
// keeps — Forgejo's Cargo metadata (modules/packages/cargo/parser.go), plus the MSRV cargo's resolver reads — and
// checked field by field: a malformed publish answers 400.
import semver from 'semver';
import { BadRequestError } from '../../domain/errors.ts';

/** A dependency as the index lists it (Cargo's index format, `deps`). */
export interface IndexDependency {
  /** The name the dependent uses: the rename when there is one. */
  name: string;
  req: string;
  features: string[];
  optional: boolean;
  default_features: boolean;
  target: string | null;
  kind: 'normal' | 'dev' | 'build';
  /** The index URL of another registry; null: this one. */
  registry: string | null;
  /** The crate's real name when `name` is a rename. */
  package?: string;
}

/** What a version keeps (its metadataJson). */
export interface CrateMetadata {
  dependencies: IndexDependency[];
  features: Record<string, string[]>;
  authors: string[];
  description: string;
  documentation_url: string;
  project_url: string;
  readme: string;
  keywords: string[];
  categories: string[];
  license: string;
  repository_url: string;
  links: string | null;
  rust_version: string | null;
}

export interface CrateManifest {
  name: string;
  version: string;
  metadata: CrateMetadata;
}

/** crates.io's rule for a crate name (and Forgejo's): a letter, then letters, digits, `-` and `_`, 64 at most. */
const CRATE_NAME = /^[a-zA-Z][a-zA-Z0-9_-]{0,63}$/;
const KINDS = new Set(['normal', 'dev', 'build']);

const bad = (why: string) => new BadRequestError(`invalid publish metadata: ${why}`);

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown, field: string): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw bad(`${field} must be a string`);
  return value;
}

function nullableText(value: unknown, field: string): string | null {
  return value === undefined || value === null ? null : text(value, field);
}

function strings(value: unknown, field: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
    throw bad(`${field} must be a list of strings`);
  }
  return value as string[];
}

function flag(value: unknown, field: string, fallback: boolean): boolean {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'boolean') throw bad(`${field} must be true or false`);
  return value;
}

/** A URL kept only when it is http(s), as Forgejo keeps it (validation.IsValidURL). */
function httpUrl(value: unknown, field: string): string {
  const url = text(value, field);
  try {
    return ['http:', 'https:'].includes(new URL(url).protocol) ? url : '';
  } catch {
    return '';
  }
}

export function isValidCrateName(name: string): boolean {
  return CRATE_NAME.test(name);
}

function dependency(value: unknown): IndexDependency {
  if (!isObject(value)) throw bad('a dependency must be an object');
  const crate = text(value.name, 'deps.name');
  if (!isValidCrateName(crate)) throw bad(`invalid dependency name "${crate}"`);
  const rename = text(value.explicit_name_in_toml, 'deps.explicit_name_in_toml');
  if (rename !== '' && !isValidCrateName(rename)) throw bad(`invalid dependency rename "${rename}"`);
  const req = text(value.version_req, 'deps.version_req');
  // Cargo's requirement grammar is its own (`>=1, <2`, `1.2.*`); the resolver reads it, so only its presence is checked.
  if (req.trim() === '') throw bad(`the dependency on ${crate} has no version requirement`);
  const kind = text(value.kind, 'deps.kind') || 'normal';
  if (!KINDS.has(kind)) throw bad(`unknown dependency kind "${kind}"`);
  return {
    name: rename || crate,
    req,
    features: strings(value.features, 'deps.features'),
    optional: flag(value.optional, 'deps.optional', false),
    default_features: flag(value.default_features, 'deps.default_features', true),
    target: nullableText(value.target, 'deps.target'),
    kind: kind as IndexDependency['kind'],
    registry: nullableText(value.registry, 'deps.registry'),
    ...(rename ? { package: crate } : {}),
  };
}

function features(value: unknown): Record<string, string[]> {
  if (value === undefined || value === null) return {};
  if (!isObject(value)) throw bad('features must be an object');
  return Object.fromEntries(Object.entries(value).map(([name, enables]) => [name, strings(enables, 'features')]));
}

/** Reads the publish JSON; 400 for anything that is not a crate's metadata. */
export function readCrateManifest(json: string): CrateManifest {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw bad('not JSON');
  }
  if (!isObject(parsed)) throw bad('not a JSON object');
  const name = text(parsed.name, 'name');
  if (!isValidCrateName(name)) throw bad('invalid crate name');
  const version = text(parsed.vers, 'vers');
  if (semver.parse(version) === null) throw bad('invalid version');
  if (parsed.deps !== undefined && !Array.isArray(parsed.deps)) throw bad('deps must be a list');
  const deps = ((parsed.deps as unknown[] | undefined) ?? []).map(dependency);
  return {
    name,
    version,
    metadata: {
      dependencies: deps,
      features: features(parsed.features),
      authors: strings(parsed.authors, 'authors'),
      description: text(parsed.description, 'description'),
      documentation_url: httpUrl(parsed.documentation, 'documentation'),
      project_url: httpUrl(parsed.homepage, 'homepage'),
      readme: text(parsed.readme, 'readme'),
      keywords: strings(parsed.keywords, 'keywords'),
      categories: strings(parsed.categories, 'categories'),
      license: text(parsed.license, 'license'),
      repository_url: httpUrl(parsed.repository, 'repository'),
      links: nullableText(parsed.links, 'links'),
      rust_version: nullableText(parsed.rust_version, 'rust_version'),
    },
  };
}
