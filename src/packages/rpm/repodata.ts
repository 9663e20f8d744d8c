// The three package lists of an RPM repository's repodata/ (the createrepo metadata format dnf reads through
// libsolv): primary.xml (what dependency resolution needs, with the files createrepo lists there too),
// filelists.xml (every file) and other.xml (changelogs).
import { XMLBuilder } from 'fast-xml-parser';
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

type XmlNode = Record<string, unknown>;

const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@_', suppressEmptyNode: true });
const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';
/** Characters XML 1.0 cannot carry at all (a package's description may hold them); libxml2 refuses the file. */
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

export function xmlDocument(root: XmlNode): string {
  return DECLARATION + builder.build(root);
}

function text(value: string): string {
  return value.replace(NOT_XML, '');
}

function versionNode(pkg: RpmPackage): XmlNode {
  return { '@_epoch': pkg.epoch, '@_ver': text(pkg.version), '@_rel': text(pkg.release) };
}

function entries(list: RpmDependency[]): XmlNode | undefined {
  if (list.length === 0) return undefined;
  const entry = list.map((dep) => ({
    '@_name': text(dep.name),
    ...(dep.flags ? { '@_flags': dep.flags } : {}),
    ...(dep.epoch ? { '@_epoch': dep.epoch } : {}),
    ...(dep.version ? { '@_ver': text(dep.version) } : {}),
    ...(dep.release ? { '@_rel': text(dep.release) } : {}),
    ...(dep.pre ? { '@_pre': '1' } : {}),
  }));
  return { 'rpm:entry': entry };
}

function fileNodes(files: RpmFileEntry[]): XmlNode[] {
  return files.map((file) => ({ '#text': text(file.path), ...(file.type ? { '@_type': file.type } : {}) }));
}

function primaryPackage({ pkg, sha256, size, href, fileTime }: IndexedRpm): XmlNode {
  const format: XmlNode = {
    'rpm:license': text(pkg.license),
    'rpm:vendor': text(pkg.vendor),
    'rpm:group': text(pkg.group),
    'rpm:buildhost': text(pkg.buildHost),
    'rpm:sourcerpm': text(pkg.sourceRpm),
    'rpm:header-range': { '@_start': pkg.headerStart, '@_end': pkg.headerEnd },
    'rpm:provides': entries(pkg.provides),
    'rpm:requires': entries(pkg.requires),
    'rpm:conflicts': entries(pkg.conflicts),
    'rpm:obsoletes': entries(pkg.obsoletes),
    file: fileNodes(pkg.files.filter((file) => file.primary)),
  };
  return {
    '@_type': 'rpm',
    name: pkg.name,
    arch: pkg.arch,
    version: versionNode(pkg),
    checksum: { '@_type': 'sha256', '@_pkgid': 'YES', '#text': sha256 },
    summary: text(pkg.summary),
    description: text(pkg.description),
    packager: text(pkg.packager),
    url: text(pkg.url),
    time: { '@_file': fileTime, '@_build': pkg.buildTime },
    size: { '@_package': size, '@_installed': pkg.installedSize, '@_archive': pkg.archiveSize },
    location: { '@_href': href },
    format,
  };
}

export function primaryXml(packages: IndexedRpm[]): string {
  return xmlDocument({
    metadata: {
      '@_xmlns': XMLNS.common,
      '@_xmlns:rpm': XMLNS.rpm,
      '@_packages': packages.length,
      package: packages.map(primaryPackage),
    },
  });
}

function listed(item: IndexedRpm, extra: XmlNode): XmlNode {
  return {
    '@_pkgid': item.sha256,
    '@_name': item.pkg.name,
    '@_arch': item.pkg.arch,
    version: versionNode(item.pkg),
    ...extra,
  };
}

export function filelistsXml(packages: IndexedRpm[]): string {
  return xmlDocument({
    filelists: {
      '@_xmlns': XMLNS.filelists,
      '@_packages': packages.length,
      package: packages.map((item) => listed(item, { file: fileNodes(item.pkg.files) })),
    },
  });
}

export function otherXml(packages: IndexedRpm[]): string {
  return xmlDocument({
    otherdata: {
      '@_xmlns': XMLNS.other,
      '@_packages': packages.length,
      package: packages.map((item) =>
        listed(item, {
          changelog: item.pkg.changelogs.map((entry) => ({
            '@_author': text(entry.author),
            '@_date': entry.date,
            '#text': text(entry.text),
          })),
        }),
      ),
    },
  });
}
