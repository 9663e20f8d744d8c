// What `twine upload` sends beside the file (the form of PyPI's legacy upload API), read into the version's name,
// version and metadata, and the digests the stored bytes must match.
import type { BlobDigests } from '../../infra/storage/blob-store.ts';
import { BadRequestError } from '../../domain/errors.ts';
import { isValidProjectName, isValidProjectVersion } from './pypi-names.ts';

/** The distribution kinds PyPI's upload API names; pip installs sdists and wheels, the rest are kept as files. */
const FILE_TYPES = new Set([
  'sdist',
  'bdist_wheel',
  'bdist_egg',
  'bdist_wininst',
  'bdist_msi',
  'bdist_dumb',
  'bdist_rpm',
]);

/** A file name that is one path segment, printable, of a sane length. */
const FILE_NAME = /^[^/\\\u0000-\u001f\u007f]{1,255}$/;

/** What the version keeps (Forgejo's pypi metadata fields). */
export interface PypiMetadata {
  author: string;
  summary: string;
  description: string;
  project_url: string;
  license: string;
  requires_python: string;
}

export interface PypiUpload {
  /** The project name with its separators normalised (PEP 503) and its letters as uploaded. */
  name: string;
  version: string;
  fileName: string;
  fileType: string;
  metadata: PypiMetadata;
  sha256?: string;
  md5?: string;
}

/** The form's text fields, the last value of each (repeated fields such as `classifiers` are not kept). */
export type UploadFields = ReadonlyMap<string, string>;

const HEX = { sha256: /^[0-9a-f]{64}$/i, md5: /^[0-9a-f]{32}$/i };

/** The project's home page: `project_urls` "Homepage, url" first (metadata 2.1+), the old `home_page` after. */
function homePage(fields: UploadFields, projectUrls: readonly string[]): string {
  for (const entry of projectUrls) {
    const comma = entry.indexOf(',');
    if (
      comma > 0 &&
      entry
        .slice(0, comma)
        .trim()
        .toLowerCase()
        .replace(/[-_.\s]/g, '') === 'homepage'
    ) {
      return httpUrlOrEmpty(entry.slice(comma + 1).trim());
    }
  }
  return httpUrlOrEmpty(fields.get('home_page') ?? '');
}

function httpUrlOrEmpty(text: string): string {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? text : '';
  } catch {
    return '';
  }
}

function digest(fields: UploadFields, field: string, pattern: RegExp): string | undefined {
  const value = fields.get(field)?.trim();
  if (value === undefined || value === '') return undefined;
  if (!pattern.test(value)) throw new BadRequestError(`${field} is not a hex digest`);
  return value.toLowerCase();
}

/** Reads the form of an upload; a missing or malformed name, version, file type or digest answers 400. */
export function readUploadForm(
  fields: UploadFields,
  fileName: string,
  projectUrls: readonly string[] = [],
): PypiUpload {
  const action = fields.get(':action');
  if (action !== undefined && action !== 'file_upload') throw new BadRequestError(`unsupported action "${action}"`);
  const rawName = fields.get('name')?.trim() ?? '';
  const version = fields.get('version')?.trim() ?? '';
  if (!isValidProjectName(rawName) || !isValidProjectVersion(version)) {
    throw new BadRequestError('invalid name or version');
  }
  if (!FILE_NAME.test(fileName) || fileName === '.' || fileName === '..') {
    throw new BadRequestError('invalid file name');
  }
  const fileType = fields.get('filetype') ?? '';
  if (!FILE_TYPES.has(fileType)) throw new BadRequestError(`unknown filetype "${fileType}"`);
  const sha256 = digest(fields, 'sha256_digest', HEX.sha256);
  const md5 = digest(fields, 'md5_digest', HEX.md5);
  if (!sha256 && !md5) throw new BadRequestError('the upload has no sha256_digest or md5_digest');
  return {
    name: normalizedKeepingCase(rawName),
    version,
    fileName,
    fileType,
    sha256,
    md5,
    metadata: {
      author: fields.get('author') ?? '',
      summary: fields.get('summary') ?? '',
      description: fields.get('description') ?? '',
      project_url: homePage(fields, projectUrls),
      license: fields.get('license') ?? '',
      requires_python: fields.get('requires_python')?.trim() ?? '',
    },
  };
}

/** `My_Project.x` → `My-Project-x`: the name compares case-insensitively, so only the separators are normalised. */
function normalizedKeepingCase(name: string): string {
  return name.replace(/[-_.]+/g, '-');
}

/** The stored bytes against the digests the client sent: a mismatch answers 400. */
export function assertDigestsMatch(upload: Pick<PypiUpload, 'sha256' | 'md5'>, stored: BlobDigests): void {
  if ((upload.sha256 && upload.sha256 !== stored.sha256) || (upload.md5 && upload.md5 !== stored.md5)) {
    throw new BadRequestError('hash mismatch');
  }
}
