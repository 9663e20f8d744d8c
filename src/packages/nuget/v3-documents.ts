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

/** The registration index of a package: one page holding every version inline (entries in version order). */
export function registrationIndex(base: string, entries: readonly NugetEntry[]) {
  const index = nugetLinks.registrationIndex(base, entries[0].id);
  const lower = entries[0].version.toLowerCase();
  const upper = entries[entries.length - 1].version.toLowerCase();
  return {
    '@id': index,
    '@type': ['catalog:CatalogRoot', 'PackageRegistration', 'catalog:Permalink'],
    count: 1,
    items: [
      {
        '@id': `${index}#page/${lower}/${upper}`,
        '@type': 'catalog:CatalogPage',
        count: entries.length,
        lower,
        upper,
        parent: index,
        items: entries.map((entry) => ({
          '@id': nugetLinks.registrationLeaf(base, entry.id, entry.version),
          '@type': 'Package',
          catalogEntry: catalogEntry(base, entry),
          packageContent: nugetLinks.packageContent(base, entry.id, entry.version),
          registration: index,
        })),
      },
    ],
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
