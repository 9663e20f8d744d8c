// A pub package's pubspec.yaml (dart.dev/tools/pub/pubspec; Forgejo: modules/packages/pub), parsed with the yaml
// library: the name and version checked (400), the whole document kept, as the pub API repeats it.
import semver from 'semver';
import type * as YAML from 'yaml';
import { BadRequestError } from '../../domain/errors.ts';

/** A Dart identifier, as pub package names are. */
const NAME = /^[a-zA-Z_][a-zA-Z0-9_]{0,63}$/;

export interface Pubspec {
  name: string;
  version: string;
  /** The whole pubspec, as a map. */
  document: Record<string, unknown>;
}

const invalid = (why: string) => new BadRequestError(`the package is invalid: ${why}`);

export function parsePubspec(text: string): Pubspec {
  let document: unknown;
  try {
    document = (require('yaml') as typeof YAML).parse(text, { maxAliasCount: 100, prettyErrors: false });
  } catch (error) {
    throw invalid(`pubspec.yaml is not valid YAML (${(error as Error).message})`);
  }
  if (!document || typeof document !== 'object' || Array.isArray(document)) throw invalid('pubspec.yaml is not a map');
  const pubspec = document as Record<string, unknown>;
  const { name, version } = pubspec;
  if (typeof name !== 'string' || !NAME.test(name)) throw invalid('the name is invalid');
  if (typeof version !== 'string' || version.length > 128 || !semver.valid(version)) {
    throw invalid('the version is invalid');
  }
  return { name, version, document: pubspec };
}
