// The documents `gem` reads, in Ruby's Marshal format: the specs lists (specs.4.8, latest_specs.4.8,
// prerelease_specs.4.8: `[name, Gem::Version, platform]` triples), the dependency API's answer (one hash per
// version with its runtime dependencies) and a version's quick specification (a Gem::Specification as its `_dump`
// writes it, zlib-deflated) — what Gem::Specification._load and RubyGems' resolver read (Forgejo:
// routers/api/packages/rubygems).
import { deflateSync } from 'node:zlib';
import type { GemSpec, Requirement } from './gem-spec.ts';
import { marshalDump, RubyHash, RubyObject, RubyUserDefined, RubyUserMarshal, type RubyValue, sym } from './marshal.ts';

export interface GemTuple {
  name: string;
  version: string;
  platform: string;
}

/** What RubyGems' current Gem::Specification format is (it reads 18 marshalled fields at version 4). */
const SPECIFICATION_VERSION = 4;
/** The RubyGems version the quick specifications claim to be written by. */
const RUBYGEMS_VERSION = '3.3.15';

const gemVersion = (version: string) => new RubyUserMarshal('Gem::Version', [version]);

const gemRequirement = (requirement: Requirement) =>
  new RubyUserMarshal('Gem::Requirement', [requirement.map(([operator, version]) => [operator, gemVersion(version)])]);

/** `Marshal.dump` of the specs list. */
export function specsList(tuples: readonly GemTuple[]): Buffer {
  return marshalDump(tuples.map((tuple) => [tuple.name, gemVersion(tuple.version), tuple.platform]));
}

/** The requirement as the dependency API spells it: `">= 1.0, < 2"`. */
function requirementText(requirement: Requirement): string {
  return requirement.map(([operator, version]) => `${operator} ${version}`).join(', ');
}

/** The dependency API's answer (GET api/v1/dependencies?gems=…): the versions of the asked gems. */
export function dependencyList(specs: readonly GemSpec[]): Buffer {
  return marshalDump(
    specs.map(
      (spec) =>
        new RubyHash([
          [sym('name'), spec.name],
          [sym('number'), spec.version],
          [sym('platform'), spec.platform],
          [
            sym('dependencies'),
            spec.runtimeDependencies.map((dependency) => [dependency.name, requirementText(dependency.requirement)]),
          ],
        ]),
    ),
  );
}

function dependencyObject(name: string, requirement: Requirement, type: 'runtime' | 'development'): RubyValue {
  const required = gemRequirement(requirement);
  return new RubyObject('Gem::Dependency', [
    ['name', name],
    ['requirement', required],
    ['type', sym(type)],
    ['prerelease', false],
    ['version_requirements', required],
  ]);
}

/** quick/Marshal.4.8/NAME-VERSION.gemspec.rz: the specification in Gem::Specification#_dump's field order. */
export function quickSpecification(spec: GemSpec): Buffer {
  const fields: RubyValue[] = [
    RUBYGEMS_VERSION,
    SPECIFICATION_VERSION,
    spec.name,
    gemVersion(spec.version),
    null, // date: _load takes today
    spec.summary,
    gemRequirement(spec.requiredRubyVersion),
    gemRequirement(spec.requiredRubygemsVersion),
    spec.platform, // original platform
    [
      ...spec.runtimeDependencies.map((dependency) =>
        dependencyObject(dependency.name, dependency.requirement, 'runtime'),
      ),
      ...spec.developmentDependencies.map((dependency) =>
        dependencyObject(dependency.name, dependency.requirement, 'development'),
      ),
    ],
    '', // rubyforge project, no longer read
    spec.email,
    spec.authors,
    spec.description,
    spec.homepage,
    true, // has_rdoc
    spec.platform, // new platform
    spec.licenses,
    new RubyHash([]), // metadata
  ];
  return deflateSync(marshalDump(new RubyUserDefined('Gem::Specification', marshalDump(fields))));
}
