// The NuGet V3 protocol's documents (learn.microsoft.com/nuget/api/overview; Forgejo: routers/api/packages/nuget
// api_v3.go): the service index, the package base address's version list, the registration index and leaves, and
// search results, with the fields the NuGet client reads.
import type { NugetMetadata } from './nuspec.ts';
import type { NugetEntry } from './nuget-entry.ts';
import { nugetLinks } from './nuget-links.ts';

/** The resources a client looks up by type in the service index (NuGet.Protocol's ServiceTypes). */
export function serviceIndex(base: string) {
  const resource = (id: string, type: string) => ({ '@id': id, '@type': type });
  return {
    version: '3.0.0',
    resources: [
      ...['SearchQueryService', 'SearchQueryService/3.0.0-beta', 'SearchQueryService/3.0.0-rc'].map((type) =>
        resource(`${base}/query`, type),
      ),
      ...['RegistrationsBaseUrl', 'RegistrationsBaseUrl/3.0.0-beta', 'RegistrationsBaseUrl/3.0.0-rc'].map((type) =>
        resource(`${base}/registration`, type),
      ),
      resource(`${base}/package`, 'PackageBaseAddress/3.0.0'),
      resource(base, 'PackagePublish/2.0.0'),
      resource(`${base}/symbolpackage`, 'SymbolPackagePublish/4.9.0'),
    ],
  };
}

/** The package base address's version list: lower-case, in version order. */
export function versionList(entries: readonly NugetEntry[]) {
  return { versions: entries.map((entry) => entry.version.toLowerCase()) };
}

function tags(metadata: NugetMetadata): string[] {
  return metadata.tags.split(/[\s,]+/).filter((tag) => tag !== '');
}

function catalogEntry(base: string, entry: NugetEntry) {
  const { metadata } = entry;
  return {
    '@id': nugetLinks.registrationLeaf(base, entry.id, entry.version),
    '@type': 'PackageDetails',
    id: entry.id,
    version: entry.version,
    authors: metadata.authors,
    description: metadata.description,
    summary: metadata.summary,
    title: metadata.title,
    tags: tags(metadata),
    iconUrl: metadata.icon_url,
    licenseUrl: metadata.license_url,
    projectUrl: metadata.project_url,
    releaseNotes: metadata.release_notes,
    requireLicenseAcceptance: metadata.require_license_acceptance,
    ...(metadata.min_client_version ? { minClientVersion: metadata.min_client_version } : {}),
    language: metadata.language,
    listed: true,
    published: entry.published.toISOString(),
    packageContent: nugetLinks.packageContent(base, entry.id, entry.version),
    dependencyGroups: metadata.dependency_groups.map((group) => ({
      targetFramework: group.targetFramework,
      dependencies: group.dependencies.map((dependency) => ({
        id: dependency.id,
        range: dependency.range,
        registration: nugetLinks.registrationIndex(base, dependency.id),
      })),
    })),
  };
}

/** Up to this many versions the index holds them inline; past it, pages the client fetches (as nuget.org does). */
const INLINE_VERSIONS = 128;
const PAGE_SIZE = 64;

/** The versions in pages of PAGE_SIZE, in version order. */
export function registrationPages(entries: readonly NugetEntry[]): NugetEntry[][] {
  const pages: NugetEntry[][] = [];
  for (let at = 0; at < entries.length; at += PAGE_SIZE) pages.push(entries.slice(at, at + PAGE_SIZE));
  return pages;
}

function bounds(entries: readonly NugetEntry[]) {
  return { lower: entries[0].version.toLowerCase(), upper: entries[entries.length - 1].version.toLowerCase() };
}

function pageItems(base: string, entries: readonly NugetEntry[]) {
  const index = nugetLinks.registrationIndex(base, entries[0].id);
  return entries.map((entry) => ({
    '@id': nugetLinks.registrationLeaf(base, entry.id, entry.version),
    '@type': 'Package',
    catalogEntry: catalogEntry(base, entry),
    packageContent: nugetLinks.packageContent(base, entry.id, entry.version),
    registration: index,
  }));
}

/** One page of the registration index, with its versions. */
export function registrationPage(base: string, entries: readonly NugetEntry[], inline = false) {
  const { id } = entries[0];
  const index = nugetLinks.registrationIndex(base, id);
  const { lower, upper } = bounds(entries);
  return {
    '@id': inline ? `${index}#page/${lower}/${upper}` : nugetLinks.registrationPage(base, id, lower, upper),
    '@type': 'catalog:CatalogPage',
    count: entries.length,
    lower,
    upper,
    parent: index,
    items: pageItems(base, entries),
  };
}

/**
 * The registration index of a package (entries in version order): one page holding every version inline, or for
 * many versions the pages' addresses and bounds only, so the index stays small however many versions there are.
 */
export function registrationIndex(base: string, entries: readonly NugetEntry[]) {
  const index = nugetLinks.registrationIndex(base, entries[0].id);
  const pages =
    entries.length <= INLINE_VERSIONS
      ? [registrationPage(base, entries, true)]
      : registrationPages(entries).map((page) => {
          const { lower, upper } = bounds(page);
          return {
            '@id': nugetLinks.registrationPage(base, page[0].id, lower, upper),
            '@type': 'catalog:CatalogPage',
            count: page.length,
            lower,
            upper,
            parent: index,
          };
        });
  return {
    '@id': index,
    '@type': ['catalog:CatalogRoot', 'PackageRegistration', 'catalog:Permalink'],
    count: pages.length,
    items: pages,
  };
}

/** One version's registration leaf. */
export function registrationLeaf(base: string, entry: NugetEntry) {
  return {
    '@id': nugetLinks.registrationLeaf(base, entry.id, entry.version),
    '@type': ['Package', 'http://schema.nuget.org/catalog#Permalink'],
    catalogEntry: nugetLinks.registrationLeaf(base, entry.id, entry.version),
    listed: true,
    packageContent: nugetLinks.packageContent(base, entry.id, entry.version),
    published: entry.published.toISOString(),
    registration: nugetLinks.registrationIndex(base, entry.id),
  };
}

/** Search results: one per package, described by its latest version, with every version listed. */
export function searchResults(base: string, totalHits: number, packages: readonly (readonly NugetEntry[])[]) {
  return {
    totalHits,
    data: packages.map((entries) => {
      const latest = entries[entries.length - 1];
      const { metadata } = latest;
      return {
        '@id': nugetLinks.registrationIndex(base, latest.id),
        '@type': 'Package',
        registration: nugetLinks.registrationIndex(base, latest.id),
        id: latest.id,
        version: latest.version,
        description: metadata.description,
        summary: metadata.summary,
        title: metadata.title,
        iconUrl: metadata.icon_url,
        licenseUrl: metadata.license_url,
        projectUrl: metadata.project_url,
        tags: tags(metadata),
        authors: metadata.authors,
        totalDownloads: entries.reduce((sum, entry) => sum + entry.downloads, 0),
        verified: false,
        packageTypes: [{ name: 'Dependency' }],
        versions: entries.map((entry) => ({
          '@id': nugetLinks.registrationLeaf(base, entry.id, entry.version),
          version: entry.version,
          downloads: entry.downloads,
        })),
      };
    }),
  };
}
