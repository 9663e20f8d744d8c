// The NuGet V2 (OData, Atom) feed as Forgejo keeps it (routers/api/packages/nuget api_v2.go, after NuGet.Client's
// LegacyFeed parsers): the service document, the $metadata the client reads its capabilities from, and Atom feeds
// and entries of V2FeedPackage properties.
import { escapeHtml as escapeXml } from '../../render/html.ts';
import type { NugetEntry } from './nuget-entry.ts';
import { nugetLinks } from './nuget-links.ts';

const XML_HEADER = '<?xml version="1.0" encoding="UTF-8"?>\n';
const ATOM = 'http://www.w3.org/2005/Atom';
const DATA = 'http://schemas.microsoft.com/ado/2007/08/dataservices';
const METADATA = 'http://schemas.microsoft.com/ado/2007/08/dataservices/metadata';

export const ATOM_XML = 'application/atom+xml; charset=utf-8';

export function serviceDocument(base: string): string {
  return `${XML_HEADER}<service xml:base="${escapeXml(base)}" xmlns="http://www.w3.org/2007/app" xmlns:atom="${ATOM}"><workspace><atom:title type="text">Default</atom:title><collection href="Packages"><atom:title type="text">Packages</atom:title></collection></workspace></service>`;
}

const PROPERTIES: [name: string, type: string, nullable: boolean][] = [
  ['Id', 'Edm.String', false],
  ['Version', 'Edm.String', false],
  ['NormalizedVersion', 'Edm.String', true],
  ['Authors', 'Edm.String', true],
  ['Created', 'Edm.DateTime', false],
  ['Dependencies', 'Edm.String', false],
  ['Description', 'Edm.String', false],
  ['DownloadCount', 'Edm.Int64', false],
  ['LastUpdated', 'Edm.DateTime', false],
  ['Published', 'Edm.DateTime', false],
  ['PackageSize', 'Edm.Int64', false],
  ['ProjectUrl', 'Edm.String', true],
  ['ReleaseNotes', 'Edm.String', true],
  ['RequireLicenseAcceptance', 'Edm.Boolean', false],
  ['Title', 'Edm.String', true],
  ['VersionDownloadCount', 'Edm.Int64', false],
];

/** The entity model: the V2FeedPackage type and the Search and FindPackagesById functions. */
export function metadataDocument(): string {
  const properties = PROPERTIES.map(
    ([name, type, nullable]) => `<Property Name="${name}" Type="${type}" Nullable="${nullable}"></Property>`,
  ).join('');
  const functionImport = (name: string, parameter: string) =>
    `<FunctionImport Name="${name}" ReturnType="Collection(NuGetGallery.OData.V2FeedPackage)" EntitySet="Packages"><Parameter Name="${parameter}" Type="Edm.String"></Parameter></FunctionImport>`;
  return `${XML_HEADER}<edmx:Edmx xmlns:edmx="http://schemas.microsoft.com/ado/2007/06/edmx" Version="1.0"><edmx:DataServices xmlns:m="${METADATA}" m:DataServiceVersion="2.0" m:MaxDataServiceVersion="2.0"><Schema xmlns="http://schemas.microsoft.com/ado/2006/04/edm" Namespace="NuGetGallery.OData"><EntityType Name="V2FeedPackage" m:HasStream="true"><Key><PropertyRef Name="Id"></PropertyRef><PropertyRef Name="Version"></PropertyRef></Key>${properties}</EntityType></Schema><Schema xmlns="http://schemas.microsoft.com/ado/2006/04/edm" Namespace="NuGetGallery"><EntityContainer Name="V2FeedContext" m:IsDefaultEntityContainer="true"><EntitySet Name="Packages" EntityType="NuGetGallery.OData.V2FeedPackage"></EntitySet>${functionImport('Search', 'searchTerm')}${functionImport('FindPackagesById', 'id')}</EntityContainer></Schema></edmx:DataServices></edmx:Edmx>`;
}

/** `id:range:framework` per dependency, joined by `|`, as the V2 client parses it. */
function dependencyString(entry: NugetEntry): string {
  return entry.metadata.dependency_groups
    .flatMap((group) => group.dependencies.map((dep) => `${dep.id}:${dep.range}:${group.targetFramework}`))
    .join('|');
}

const typed = (name: string, type: string, value: string) => `<d:${name} m:type="${type}">${value}</d:${name}>`;
const plain = (name: string, value: string) => `<d:${name}>${escapeXml(value)}</d:${name}>`;

function entryXml(base: string, entry: NugetEntry, namespaces: boolean): string {
  const { metadata } = entry;
  const id = escapeXml(nugetLinks.v2Entry(base, entry.id, entry.version));
  const date = entry.published.toISOString();
  const attributes = namespaces
    ? ` xmlns="${ATOM}" xmlns:d="${DATA}" xmlns:m="${METADATA}" xml:base="${escapeXml(base)}"`
    : '';
  const properties = [
    plain('Id', entry.id),
    plain('Version', entry.version),
    plain('NormalizedVersion', entry.version),
    plain('Authors', metadata.authors),
    plain('Dependencies', dependencyString(entry)),
    plain('Description', metadata.description),
    typed('VersionDownloadCount', 'Edm.Int64', String(entry.downloads)),
    typed('DownloadCount', 'Edm.Int64', String(entry.downloads)),
    typed('PackageSize', 'Edm.Int64', String(entry.size)),
    typed('Created', 'Edm.DateTime', date),
    typed('LastUpdated', 'Edm.DateTime', date),
    typed('Published', 'Edm.DateTime', date),
    metadata.project_url ? plain('ProjectUrl', metadata.project_url) : '',
    metadata.release_notes ? plain('ReleaseNotes', metadata.release_notes) : '',
    typed('RequireLicenseAcceptance', 'Edm.Boolean', String(metadata.require_license_acceptance)),
    plain('Title', metadata.title || entry.id),
  ].join('');
  // The content element is self-closing: the client's XmlReader checks IsEmptyElement.
  const content = `<content type="application/zip" src="${escapeXml(nugetLinks.packageContent(base, entry.id, entry.version))}"/>`;
  return `<entry${attributes}><id>${id}</id><category term="NuGetGallery.OData.V2FeedPackage" scheme="http://schemas.microsoft.com/ado/2007/08/dataservices/scheme"></category><link rel="self" href="${id}"></link><link rel="edit" href="${id}"></link><title type="text">${escapeXml(entry.id)}</title><updated>${date}</updated><author><name>${escapeXml(metadata.authors)}</name></author><summary>${escapeXml(metadata.summary)}</summary>${content}<m:properties>${properties}</m:properties></entry>`;
}

/** One entry as its own document (`Packages(Id='…',Version='…')`). */
export function entryDocument(base: string, entry: NugetEntry): string {
  return XML_HEADER + entryXml(base, entry, true);
}

/** A feed of entries; `next` is the address of the next page when there may be one. */
export function feedDocument(base: string, total: number, entries: readonly NugetEntry[], next?: string): string {
  const links = `<link rel="self" href="${escapeXml(base)}"></link>${next ? `<link rel="next" href="${escapeXml(next)}"></link>` : ''}`;
  return `${XML_HEADER}<feed xmlns="${ATOM}" xmlns:d="${DATA}" xmlns:m="${METADATA}" xml:base="${escapeXml(base)}"><id>http://schemas.datacontract.org/2004/07/</id><title type="text">Packages</title><updated>${new Date().toISOString()}</updated>${links}${entries.map((entry) => entryXml(base, entry, false)).join('')}<m:count>${total}</m:count></feed>`;
}
