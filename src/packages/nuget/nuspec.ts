// The .nuspec manifest of a package (learn.microsoft.com/nuget/reference/nuspec), read for what the feeds show
// (Forgejo: modules/packages/nuget/metadata.go): id and version (refused with 400 when invalid), the descriptive
// fields, dependency groups, and the package type that tells a symbol package from a dependency package.
import { XMLParser } from 'fast-xml-parser';
import { BadRequestError } from '../../domain/errors.ts';
import { normalizeNugetVersion } from './nuget-version.ts';

/** NuGet's package id: word characters in dot- or dash-separated runs, at most 100 characters. */
const ID = /^\w+(?:[.-]\w+)*$/;
const MAX_ID_LENGTH = 100;

export interface NugetDependency {
  id: string;
  /** A NuGet version range as the nuspec gives it (`1.0.0`, `[1.0,2.0)`). */
  range: string;
}

export interface NugetDependencyGroup {
  /** The target framework moniker; empty for dependencies of every framework. */
  targetFramework: string;
  dependencies: NugetDependency[];
}

/** What a version keeps (PackageVersion.metadataJson). */
export interface NugetMetadata {
  authors: string;
  description: string;
  summary: string;
  title: string;
  tags: string;
  release_notes: string;
  copyright: string;
  language: string;
  project_url: string;
  icon_url: string;
  license_url: string;
  repository_url: string;
  require_license_acceptance: boolean;
  min_client_version: string;
  dependency_groups: NugetDependencyGroup[];
}

export interface Nuspec {
  id: string;
  /** In NuGet's normal form. */
  version: string;
  isSymbolPackage: boolean;
  metadata: NugetMetadata;
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  isArray: (name) => ['group', 'dependency', 'packageType'].includes(name),
});

type XmlNode = Record<string, unknown>;

function text(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && '#text' in value) return String((value as XmlNode)['#text']);
  return '';
}

function nodes(value: unknown): XmlNode[] {
  return Array.isArray(value) ? value.filter((item): item is XmlNode => !!item && typeof item === 'object') : [];
}

function httpUrl(value: string): string {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? value : '';
  } catch {
    return '';
  }
}

function dependencies(list: unknown): NugetDependency[] {
  return nodes(list)
    .map((node) => ({ id: text(node['@id']), range: text(node['@version']) }))
    .filter((dependency) => dependency.id !== '');
}

function dependencyGroups(node: unknown): NugetDependencyGroup[] {
  if (!node || typeof node !== 'object') return [];
  const container = node as XmlNode;
  const groups = nodes(container.group).map((group) => ({
    targetFramework: text(group['@targetFramework']),
    dependencies: dependencies(group.dependency),
  }));
  const ungrouped = dependencies(container.dependency);
  return ungrouped.length > 0 ? [{ targetFramework: '', dependencies: ungrouped }, ...groups] : groups;
}

function isSymbols(node: unknown): boolean {
  if (!node || typeof node !== 'object') return false;
  return nodes((node as XmlNode).packageType).some((type) => text(type['@name']) === 'SymbolsPackage');
}

/** Reads a manifest; malformed XML, a DOCTYPE, or an invalid id or version answers 400. */
export function parseNuspec(xml: string): Nuspec {
  // A manifest needs no DOCTYPE; refusing it keeps entity expansion out.
  if (/<!DOCTYPE/i.test(xml)) throw new BadRequestError('the nuspec file must not have a DOCTYPE');
  let document: XmlNode;
  try {
    document = parser.parse(xml) as XmlNode;
  } catch (error) {
    throw new BadRequestError(`the nuspec file is not valid XML: ${(error as Error).message}`);
  }
  const root = document.package as XmlNode | undefined;
  const metadata = (root?.metadata ?? null) as XmlNode | null;
  if (!metadata || typeof metadata !== 'object') throw new BadRequestError('the nuspec file has no metadata');
  const id = text(metadata.id);
  if (id.length > MAX_ID_LENGTH || !ID.test(id)) throw new BadRequestError('the nuspec file contains an invalid id');
  const version = normalizeNugetVersion(text(metadata.version));
  if (!version) throw new BadRequestError('the nuspec file contains an invalid version');
  const repository = metadata.repository as XmlNode | undefined;
  return {
    id,
    version,
    isSymbolPackage: isSymbols(metadata.packageTypes),
    metadata: {
      authors: text(metadata.authors),
      description: text(metadata.description),
      summary: text(metadata.summary),
      title: text(metadata.title),
      tags: text(metadata.tags),
      release_notes: text(metadata.releaseNotes),
      copyright: text(metadata.copyright),
      language: text(metadata.language),
      project_url: httpUrl(text(metadata.projectUrl)),
      icon_url: httpUrl(text(metadata.iconUrl)),
      license_url: httpUrl(text(metadata.licenseUrl)),
      repository_url: httpUrl(text(repository?.['@url'])),
      require_license_acceptance: text(metadata.requireLicenseAcceptance).toLowerCase() === 'true',
      min_client_version: text(metadata['@minClientVersion']),
      dependency_groups: dependencyGroups(metadata.dependencies),
    },
  };
}

/** The metadata kept for a version, with a default for every field (rows written before a field existed). */
export function readNugetMetadata(json: string): NugetMetadata {
  let stored: Partial<NugetMetadata> = {};
  try {
    stored = JSON.parse(json) as Partial<NugetMetadata>;
  } catch {
    // An unreadable row shows its version without details.
  }
  return {
    authors: '',
    description: '',
    summary: '',
    title: '',
    tags: '',
    release_notes: '',
    copyright: '',
    language: '',
    project_url: '',
    icon_url: '',
    license_url: '',
    repository_url: '',
    require_license_acceptance: false,
    min_client_version: '',
    ...stored,
    dependency_groups: Array.isArray(stored.dependency_groups) ? stored.dependency_groups : [],
  };
}
