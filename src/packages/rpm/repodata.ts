// The three package lists of an RPM repository's repodata/ (the createrepo metadata format dnf reads through
// libsolv): primary.xml (what dependency resolution needs, with the files createrepo lists there too),
// filelists.xml (every file) and other.xml (changelogs). Written as text, package by package, in slices that let
// requests through (a document tree of a thousand packages' files took most of a rebuild).
import { mapInSlices } from '../core/in-slices.ts';
import { XML_DECLARATION, xmlAttributes, xmlElement } from '../core/xml-text.ts';
import type { RpmDependency, RpmFileEntry, RpmPackage } from './rpm-package.ts';

export const XMLNS = {
  common: 'http://linux.duke.edu/metadata/common',
  rpm: 'http://linux.duke.edu/metadata/rpm',
  filelists: 'http://linux.duke.edu/metadata/filelists',
  other: 'http://linux.duke.edu/metadata/other',
  repo: 'http://linux.duke.edu/metadata/repo',
} as const;

/** A package of the repository as its index lists it. */
export interface IndexedRpm {
  pkg: RpmPackage;
  sha256: string;
  size: number;
  /** Where dnf downloads it, relative to the repository's base URL. */
  href: string;
  /** When the file was stored, in seconds. */
  fileTime: number;
}

function versionTag(pkg: RpmPackage): string {
  return `<version${xmlAttributes({ epoch: pkg.epoch, ver: pkg.version, rel: pkg.release })}/>`;
}

function entries(tag: string, list: RpmDependency[]): string {
  if (list.length === 0) return '';
  let out = `<${tag}>`;
  for (const dep of list) {
    const attributes = {
      name: dep.name,
      flags: dep.flags || undefined,
      epoch: dep.epoch || undefined,
      ver: dep.version || undefined,
      rel: dep.release || undefined,
      pre: dep.pre ? '1' : undefined,
    };
    out += `<rpm:entry${xmlAttributes(attributes)}/>`;
  }
  return `${out}</${tag}>`;
}

function fileTags(files: RpmFileEntry[], primaryOnly: boolean): string {
  let out = '';
  for (const file of files) {
    if (!primaryOnly || file.primary) out += xmlElement('file', file.path, { type: file.type || undefined });
  }
  return out;
}

function primaryPackage({ pkg, sha256, size, href, fileTime }: IndexedRpm): string {
  const format =
    xmlElement('rpm:license', pkg.license) +
    xmlElement('rpm:vendor', pkg.vendor) +
    xmlElement('rpm:group', pkg.group) +
    xmlElement('rpm:buildhost', pkg.buildHost) +
    xmlElement('rpm:sourcerpm', pkg.sourceRpm) +
    `<rpm:header-range${xmlAttributes({ start: pkg.headerStart, end: pkg.headerEnd })}/>` +
    entries('rpm:provides', pkg.provides) +
    entries('rpm:requires', pkg.requires) +
    entries('rpm:conflicts', pkg.conflicts) +
    entries('rpm:obsoletes', pkg.obsoletes) +
    fileTags(pkg.files, true);
  return (
    '<package type="rpm">' +
    xmlElement('name', pkg.name) +
    xmlElement('arch', pkg.arch) +
    versionTag(pkg) +
    xmlElement('checksum', sha256, { type: 'sha256', pkgid: 'YES' }) +
    xmlElement('summary', pkg.summary) +
    xmlElement('description', pkg.description) +
    xmlElement('packager', pkg.packager) +
    xmlElement('url', pkg.url) +
    `<time${xmlAttributes({ file: fileTime, build: pkg.buildTime })}/>` +
    `<size${xmlAttributes({ package: size, installed: pkg.installedSize, archive: pkg.archiveSize })}/>` +
    `<location${xmlAttributes({ href })}/>` +
    `<format>${format}</format></package>`
  );
}

export type ListType = 'primary' | 'filelists' | 'other';

const ROOTS: Record<ListType, { root: string; namespaces: Record<string, string> }> = {
  primary: { root: 'metadata', namespaces: { xmlns: XMLNS.common, 'xmlns:rpm': XMLNS.rpm } },
  filelists: { root: 'filelists', namespaces: { xmlns: XMLNS.filelists } },
  other: { root: 'otherdata', namespaces: { xmlns: XMLNS.other } },
};

/** A filelists/other entry: the package's id, name, architecture and version, then its own content. */
function listed(item: IndexedRpm, content: string): string {
  const attributes = xmlAttributes({ pkgid: item.sha256, name: item.pkg.name, arch: item.pkg.arch });
  return `<package${attributes}>${versionTag(item.pkg)}${content}</package>`;
}

function otherPackage(item: IndexedRpm): string {
  let changelogs = '';
  for (const entry of item.pkg.changelogs) {
    changelogs += xmlElement('changelog', entry.text, { author: entry.author, date: entry.date });
  }
  return listed(item, changelogs);
}

const ENTRY: Record<ListType, (item: IndexedRpm) => string> = {
  primary: primaryPackage,
  filelists: (item) => listed(item, fileTags(item.pkg.files, false)),
  other: otherPackage,
};

/** The list document of the type: its root with the namespaces and package count, then each package's entry. */
export async function listXml(type: ListType, packages: IndexedRpm[]): Promise<string> {
  const { root, namespaces } = ROOTS[type];
  const entries = await mapInSlices(packages, ENTRY[type]);
  const open = `${XML_DECLARATION}<${root}${xmlAttributes({ ...namespaces, packages: packages.length })}>`;
  return `${open}${entries.join('')}</${root}>`;
}
