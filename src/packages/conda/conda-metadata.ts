// What a Conda package says of itself in info/index.json and info/about.json (Forgejo: modules/packages/conda),
// checked as conda-build checks names and versions: the name, version and subdir are path segments and index keys,
// so anything that is not plainly one is refused (400).
import { BadRequestError } from '../../domain/errors.ts';
import { httpUrlOrEmpty } from '../../lib/http-url.ts';

/** What the version keeps (metadataJson), shown by the API and channeldata.json. */
export interface CondaVersionMetadata {
  description?: string;
  summary?: string;
  project_url?: string;
  repository_url?: string;
  documentation_url?: string;
  license?: string;
  license_family?: string;
}

/** What each file keeps (a file property): what repodata.json lists per file. */
export interface CondaFileMetadata {
  is_conda: boolean;
  arch?: string;
  noarch?: string;
  build: string;
  build_number: number;
  depends: string[];
  constrains?: string[];
  track_features?: string;
  platform?: string;
  timestamp?: number;
}

export interface CondaPackage {
  name: string;
  version: string;
  subdir: string;
  versionMetadata: CondaVersionMetadata;
  fileMetadata: CondaFileMetadata;
}

// conda-build's rules (metadata.py): lower case, none of these characters; versions no '-' either.
const BAD_CHARACTERS = /[=@#$%^&*:;"'\\|<>?/ !\u0000-\u001f\u007f]/;
const NAME = (name: string) => name.length <= 200 && name === name.toLowerCase() && !BAD_CHARACTERS.test(name);
const VERSION = (version: string) => version.length <= 200 && !BAD_CHARACTERS.test(version) && !version.includes('-');
/** linux-64, osx-arm64, win-64, noarch…; a build string likewise stays one safe segment of a file name. */
const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9_.+-]{0,99}$/;
const MAX_LIST = 1000;

const invalid = (what: string) => new BadRequestError(`the package's info/index.json has an invalid ${what}`);

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function optionalText(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function stringList(value: unknown, what: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.length > MAX_LIST || !value.every((item) => typeof item === 'string')) {
    throw invalid(what);
  }
  return value as string[];
}

function parseObject(json: string, file: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new BadRequestError(`the package's ${file} is not JSON`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new BadRequestError(`the package's ${file} is not a JSON object`);
  }
  return parsed as Record<string, unknown>;
}

/** Reads index.json (required) and about.json (optional); `isConda`: the file is the .conda format. */
export function readCondaMetadata(indexJson: string, aboutJson: string | undefined, isConda: boolean): CondaPackage {
  const index = parseObject(indexJson, 'info/index.json');
  const about = aboutJson === undefined ? {} : parseObject(aboutJson, 'info/about.json');
  const name = text(index.name);
  const version = text(index.version);
  const subdir = text(index.subdir);
  const build = text(index.build);
  if (!name || !NAME(name)) throw invalid('name');
  if (!version || !VERSION(version)) throw invalid('version');
  if (!SEGMENT.test(subdir)) throw invalid('subdir');
  if (!SEGMENT.test(build)) throw invalid('build');
  const buildNumber = index.build_number ?? 0;
  if (typeof buildNumber !== 'number' || !Number.isSafeInteger(buildNumber) || buildNumber < 0) {
    throw invalid('build_number');
  }
  const timestamp = typeof index.timestamp === 'number' && Number.isFinite(index.timestamp) ? index.timestamp : 0;
  const constrains = stringList(index.constrains, 'constrains');
  return {
    name,
    version,
    subdir,
    versionMetadata: {
      description: optionalText(about.description),
      summary: optionalText(about.summary),
      project_url: httpUrlOrEmpty(about.home) || undefined,
      repository_url: httpUrlOrEmpty(about.dev_url) || undefined,
      documentation_url: httpUrlOrEmpty(about.doc_url) || undefined,
      license: optionalText(index.license),
      license_family: optionalText(index.license_family),
    },
    fileMetadata: {
      is_conda: isConda,
      arch: optionalText(index.arch),
      noarch: optionalText(index.noarch),
      build,
      build_number: buildNumber,
      depends: stringList(index.depends, 'depends'),
      ...(constrains.length > 0 ? { constrains } : {}),
      track_features: optionalText(index.track_features),
      platform: optionalText(index.platform),
      ...(timestamp > 0 ? { timestamp: Math.trunc(timestamp) } : {}),
    },
  };
}

/** The name Forgejo stores a file under, whatever it was uploaded as. */
export function condaFileName(pkg: CondaPackage): string {
  const extension = pkg.fileMetadata.is_conda ? '.conda' : '.tar.bz2';
  return `${pkg.name}-${pkg.version}-${pkg.fileMetadata.build}${extension}`;
}
