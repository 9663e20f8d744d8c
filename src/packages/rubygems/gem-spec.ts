// A gem's specification as `gem build` writes it into metadata.gz: YAML with Ruby's object tags
// (!ruby/object:Gem::Specification, Gem::Version, Gem::Requirement, Gem::Dependency), read as plain maps. What the
// indexes and the package API need is kept (Forgejo: modules/packages/rubygems/metadata.go); the rest of the
// document is the client's.
import type * as YAML from 'yaml';
import { BadRequestError } from '../../domain/errors.ts';

/** `[operator, version]` pairs, as Gem::Requirement holds them. */
export type Requirement = Array<[string, string]>;

export interface GemDependency {
  name: string;
  requirement: Requirement;
}

export interface GemSpec {
  name: string;
  version: string;
  /** `ruby` for a pure-Ruby gem. */
  platform: string;
  summary: string;
  description: string;
  authors: string[];
  email: string;
  homepage: string;
  licenses: string[];
  requiredRubyVersion: Requirement;
  requiredRubygemsVersion: Requirement;
  runtimeDependencies: GemDependency[];
  developmentDependencies: GemDependency[];
}

/** Gem::Specification's name rule, and Gem::Version's pattern. */
const GEM_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const GEM_VERSION = /^[0-9]+(?:\.[0-9a-zA-Z]+)*(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;
const PLATFORM = /^[A-Za-z0-9_.-]{1,64}$/;
const OPERATORS = new Set(['=', '!=', '>', '<', '>=', '<=', '~>']);

const bad = (message: string) => new BadRequestError(`invalid gem: ${message}`);

type Node = Record<string, unknown>;

function isMap(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}

function texts(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.map(text).filter((item) => item !== '') : [];
}

/** A Gem::Version node (`version: 1.2`) or a bare scalar. */
function versionOf(value: unknown): string {
  return isMap(value) ? text(value.version) : text(value);
}

function requirementOf(value: unknown): Requirement {
  const pairs = isMap(value) && Array.isArray(value.requirements) ? value.requirements : [];
  const requirement: Requirement = [];
  for (const pair of pairs) {
    if (!Array.isArray(pair) || pair.length !== 2) throw bad('a requirement is not [operator, version]');
    const operator = text(pair[0]);
    const version = versionOf(pair[1]);
    if (!OPERATORS.has(operator) || !GEM_VERSION.test(version)) throw bad(`a requirement is malformed`);
    requirement.push([operator, version]);
  }
  return requirement.length > 0 ? requirement : [['>=', '0']];
}

function dependenciesOf(value: unknown, type: string): GemDependency[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((item): item is Node => isMap(item) && text(item.type).replace(/^:/, '') === type)
    .map((item) => {
      const name = text(item.name);
      if (!GEM_NAME.test(name)) throw bad('a dependency name is invalid');
      return { name, requirement: requirementOf(item.requirement ?? item.version_requirements) };
    });
}

/** Reads metadata.gz's YAML; a document that names no valid gem answers 400. */
export function parseGemSpec(yamlText: string): GemSpec {
  const document = (require('yaml') as typeof YAML).parseDocument(yamlText, { uniqueKeys: false });
  if (document.errors.length > 0) throw bad(`metadata is not YAML: ${document.errors[0].message}`);
  const root: unknown = document.toJS({ maxAliasCount: 100 });
  if (!isMap(root)) throw bad('metadata is not a specification');
  const name = text(root.name);
  const version = versionOf(root.version);
  const platform = text(root.platform) || 'ruby';
  if (!GEM_NAME.test(name)) throw bad('the name is invalid');
  if (!GEM_VERSION.test(version) || version.length > 128) throw bad('the version is invalid');
  if (!PLATFORM.test(platform)) throw bad('the platform is invalid');
  return {
    name,
    version,
    platform,
    summary: text(root.summary),
    description: text(root.description),
    authors: texts(root.authors),
    email: texts(root.email).join(', '),
    homepage: text(root.homepage),
    licenses: texts(root.licenses),
    requiredRubyVersion: requirementOf(root.required_ruby_version),
    requiredRubygemsVersion: requirementOf(root.required_rubygems_version),
    runtimeDependencies: dependenciesOf(root.dependencies, 'runtime'),
    developmentDependencies: dependenciesOf(root.dependencies, 'development'),
  };
}

/** Gem::Version#prerelease?: any letter in the version. */
export function isPrerelease(version: string): boolean {
  return /[a-zA-Z]/.test(version);
}

/** The gem's file name, as `gem` asks for it: NAME-VERSION.gem, or NAME-VERSION-PLATFORM.gem. */
export function gemFileName(spec: Pick<GemSpec, 'name' | 'version' | 'platform'>): string {
  return spec.platform === 'ruby'
    ? `${spec.name}-${spec.version}.gem`
    : `${spec.name}-${spec.version}-${spec.platform}.gem`;
}
