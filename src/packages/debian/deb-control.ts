// A Debian control stanza (deb-control(5)): the fields a repository needs — name, version, architecture — checked
// as Forgejo checks them (modules/packages/debian), and the version's metadata for the API.
import { BadRequestError } from '../../domain/errors.ts';

// Debian policy 5.6.1 (Source/Package) and 5.6.12 (Version).
const NAME = /^[a-z0-9][a-z0-9+.-]+$/;
const VERSION = /^(?:[0-9]+:)?[a-zA-Z0-9.+~]+(?:-[a-zA-Z0-9.+~-]+)?$/;
const ARCHITECTURE = /^[a-z0-9][a-z0-9-]*$/;

export interface DebControl {
  name: string;
  version: string;
  architecture: string;
  /** The stanza as the package has it, trimmed, without the fields a Packages index adds itself. */
  stanza: string;
  metadata: { maintainer?: string; description?: string; project_url?: string; dependencies?: string[] };
}

/** Fields of the stanza by name (continuation lines joined with newlines), in order. */
export function parseStanza(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  let current: string | null = null;
  for (const line of text.split('\n')) {
    if (line.trim() === '') {
      if (fields.size > 0) break;
      continue;
    }
    if ((line.startsWith(' ') || line.startsWith('\t')) && current) {
      fields.set(current, `${fields.get(current)}\n${line}`);
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) throw new BadRequestError('the control file is malformed');
    current = line.slice(0, colon);
    fields.set(current, line.slice(colon + 1).trim());
  }
  return fields;
}

/** Fields the index writes from the stored file, so a package cannot name other bytes than its own. */
const INDEX_FIELDS = new Set(['filename', 'size', 'md5sum', 'sha1', 'sha256', 'sha512']);

export function parseDebControl(text: string): DebControl {
  const fields = parseStanza(text.replace(/\r\n/g, '\n'));
  const name = fields.get('Package') ?? '';
  const version = fields.get('Version') ?? '';
  const architecture = fields.get('Architecture') ?? '';
  if (!NAME.test(name)) throw new BadRequestError('package name is invalid');
  if (!VERSION.test(version)) throw new BadRequestError('package version is invalid');
  if (!ARCHITECTURE.test(architecture)) throw new BadRequestError('package architecture is invalid');
  const stanza = [...fields]
    .filter(([field]) => !INDEX_FIELDS.has(field.toLowerCase()))
    .map(([field, value]) => `${field}: ${value}`)
    .join('\n');
  const depends = fields.get('Depends');
  const homepage = fields.get('Homepage');
  return {
    name,
    version,
    architecture,
    stanza,
    metadata: {
      ...(fields.has('Maintainer') ? { maintainer: fields.get('Maintainer') } : {}),
      ...(fields.has('Description') ? { description: fields.get('Description') } : {}),
      ...(homepage && /^https?:\/\//.test(homepage) ? { project_url: homepage } : {}),
      ...(depends ? { dependencies: depends.split(',').map((dep) => dep.trim()) } : {}),
    },
  };
}
