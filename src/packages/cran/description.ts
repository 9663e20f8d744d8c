// An R package's DESCRIPTION (Debian control format: `Field: value`, continuation lines indented), read into what
// the PACKAGES index and the package API need (Forgejo: modules/packages/cran/metadata.go).
import { BadRequestError } from '../../domain/errors.ts';

export interface CranMetadata {
  title: string;
  description: string;
  license: string;
  authors: string[];
  projectUrl: string[];
  depends: string[];
  imports: string[];
  suggests: string[];
  linkingTo: string[];
  needsCompilation: boolean;
}

export interface CranDescription {
  name: string;
  version: string;
  metadata: CranMetadata;
}

/** Writing R Extensions 1.1.1: letters, digits and dots, starting with a letter and not ending in a dot. */
const PACKAGE_NAME = /^[a-zA-Z][a-zA-Z0-9.]*[a-zA-Z0-9]$/;
/** At least two non-negative integers separated by `.` or `-`. */
const PACKAGE_VERSION = /^[0-9]+(?:[.-][0-9]+)+$/;

const bad = (message: string) => new BadRequestError(`invalid R package: ${message}`);

/** The fields of a DESCRIPTION, continuation lines joined with one space. */
export function readControlFields(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  let current: string | null = null;
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '') continue;
    if (/^\s/.test(line)) {
      if (current === null) throw bad('DESCRIPTION starts with a continuation line');
      fields.set(current, `${fields.get(current)} ${line.trim()}`);
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) throw bad(`DESCRIPTION has a line that is no field: ${line.slice(0, 40)}`);
    current = line.slice(0, colon).trim();
    fields.set(current, line.slice(colon + 1).trim());
  }
  return fields;
}

function list(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim().replace(/\s+/g, ' '))
    .filter((item) => item !== '');
}

export function parseDescription(text: string): CranDescription {
  const fields = readControlFields(text);
  const name = fields.get('Package') ?? '';
  const version = fields.get('Version') ?? '';
  if (!PACKAGE_NAME.test(name) || name.length > 128) throw bad('Package is missing or invalid');
  if (!PACKAGE_VERSION.test(version) || version.length > 64) throw bad('Version is missing or invalid');
  return {
    name,
    version,
    metadata: {
      title: fields.get('Title') ?? '',
      description: fields.get('Description') ?? '',
      license: fields.get('License') ?? '',
      authors: list((fields.get('Author') ?? '').replace(/[[(].+?[\])]/g, '')),
      projectUrl: list(fields.get('URL')),
      depends: list(fields.get('Depends')),
      imports: list(fields.get('Imports')),
      suggests: list(fields.get('Suggests')),
      linkingTo: list(fields.get('LinkingTo')),
      needsCompilation: fields.get('NeedsCompilation') === 'yes',
    },
  };
}

/** R's package_version order: the numeric components compared in turn, a missing one below any. */
export function compareCranVersions(a: string, b: string): number {
  const left = a.split(/[.-]/).map(Number);
  const right = b.split(/[.-]/).map(Number);
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const x = left[i] ?? -1;
    const y = right[i] ?? -1;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}
