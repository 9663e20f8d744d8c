// A project's page of the simple repository API, as pip reads it: PEP 503 HTML or PEP 691 JSON (with PEP 700's
// versions, sizes and upload times), every file linked with its sha256 and its version's Requires-Python.
import type { IndexedFile } from '../../db/package-index.repository.ts';
import { escapeHtml } from '../../render/html.ts';

export const SIMPLE_JSON = 'application/vnd.pypi.simple.v1+json';
export const SIMPLE_HTML = 'application/vnd.pypi.simple.v1+html';
/** The media types a client may ask for, JSON first: what a client without preference gets is HTML (PEP 691). */
export const SIMPLE_MEDIA_TYPES = [SIMPLE_HTML, SIMPLE_JSON, 'text/html'] as const;

const API_VERSION = '1.1';

export interface IndexFile {
  version: string;
  fileName: string;
  url: string;
  sha256: string;
  size: number;
  uploadedAt: Date;
  /** The version's Requires-Python, empty when it has none. */
  requiresPython: string;
}

export interface ProjectIndex {
  /** The normalised project name (PEP 503). */
  name: string;
  /** Oldest first. */
  versions: string[];
  files: IndexFile[];
}

export function simpleIndexHtml(index: ProjectIndex): string {
  const links = index.files.map((file) => {
    const requires = file.requiresPython ? ` data-requires-python="${escapeHtml(file.requiresPython)}"` : '';
    const href = escapeHtml(`${file.url}#sha256=${file.sha256}`);
    return `    <a href="${href}"${requires}>${escapeHtml(file.fileName)}</a><br>`;
  });
  const title = `Links for ${escapeHtml(index.name)}`;
  return [
    '<!DOCTYPE html>',
    '<html>',
    '  <head>',
    `    <meta name="pypi:repository-version" content="${API_VERSION}">`,
    `    <title>${title}</title>`,
    '  </head>',
    '  <body>',
    `    <h1>${title}</h1>`,
    ...links,
    '  </body>',
    '</html>',
    '',
  ].join('\n');
}

export function simpleIndexJson(index: ProjectIndex) {
  return {
    meta: { 'api-version': API_VERSION },
    name: index.name,
    versions: index.versions,
    files: index.files.map((file) => ({
      filename: file.fileName,
      url: file.url,
      hashes: { sha256: file.sha256 },
      ...(file.requiresPython ? { 'requires-python': file.requiresPython } : {}),
      size: file.size,
      'upload-time': file.uploadedAt.toISOString(),
    })),
  };
}

/** The rows of a project's files as its page lists them, linked under the registry's `files/` path. */
export function projectIndex(name: string, files: readonly IndexedFile[], registryUrl: string): ProjectIndex {
  const requiresPython = new Map<number, string>();
  const requirementOf = (file: IndexedFile) => {
    let requirement = requiresPython.get(file.versionId);
    if (requirement === undefined) {
      requirement = readRequiresPython(file.metadataJson);
      requiresPython.set(file.versionId, requirement);
    }
    return requirement;
  };
  return {
    name,
    versions: [...new Set(files.map((file) => file.version))],
    files: files.map((file) => ({
      version: file.version,
      fileName: file.fileName,
      url: `${registryUrl}/files/${[name, file.version, file.fileName].map(encodeURIComponent).join('/')}`,
      sha256: file.sha256,
      size: file.size,
      uploadedAt: file.fileCreatedAt,
      requiresPython: requirementOf(file),
    })),
  };
}

function readRequiresPython(metadataJson: string): string {
  try {
    const value = (JSON.parse(metadataJson) as { requires_python?: unknown }).requires_python;
    return typeof value === 'string' ? value : '';
  } catch {
    return '';
  }
}
