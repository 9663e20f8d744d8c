// What the NuGet feeds read (Forgejo: routers/api/packages/nuget): a package's versions as entries, its V3
// documents kept while the package's revision is current, search, and the files to download.
import type { User } from '../../db/entities.ts';
import type { PackageFileDownload } from '../../db/hot-queries.ts';
import type { PackageFileRow } from '../../db/package.repository.ts';
import { NotFoundError } from '../../domain/errors.ts';
import type { ServiceDeps } from '../../services/service-deps.ts';
import { type IndexDocument, IndexDocumentCache, indexDocument } from '../core/index-document.ts';
import { type NugetEntry, nugetEntries } from './nuget-entry.ts';
import { nugetFileNames } from './nuget-links.ts';
import { NUGET, SYMBOL_ID_PROPERTY } from './nuget-push.ts';
import { normalizeNugetVersion } from './nuget-version.ts';
import { registrationIndex, registrationPage, registrationPages, versionList } from './v3-documents.ts';

const packageNotFound = () => new NotFoundError('package does not exist');

export interface NugetPage {
  skip: number;
  take: number;
}

export class NugetService {
  private readonly documents = new IndexDocumentCache();

  constructor(private readonly deps: ServiceDeps) {}

  private get index() {
    return this.deps.repos.packageIndex;
  }

  /** Every version of the package in version order; none when it has none. */
  async entries(owner: User, id: string, version?: string): Promise<NugetEntry[]> {
    const lowerVersion = version === undefined ? undefined : (normalizeNugetVersion(version) ?? version).toLowerCase();
    const files = await this.index.listFiles({ ownerId: owner.id, type: NUGET, name: id }, lowerVersion);
    return files.length === 0 ? [] : nugetEntries(files[0].packageName, files);
  }

  /** One version; 404 when there is none. */
  async entry(owner: User, id: string, version: string): Promise<NugetEntry> {
    const [found] = await this.entries(owner, id, version);
    if (!found) throw packageNotFound();
    return found;
  }

  /** The registration index of the package as the registry at `base` serves it. */
  registrationIndex(owner: User, id: string, base: string): Promise<IndexDocument> {
    return this.document(owner, id, `registration\n${base}`, (entries) => registrationIndex(base, entries));
  }

  /** A page of a registration index too large to hold its versions inline; 404 for bounds of no page. */
  registrationPage(owner: User, id: string, lower: string, upper: string, base: string): Promise<IndexDocument> {
    const variant = `page\n${lower.toLowerCase()}\n${upper.toLowerCase()}\n${base}`;
    return this.document(owner, id, variant, (entries) => {
      const page = registrationPages(entries).find(
        (items) =>
          items[0].version.toLowerCase() === lower.toLowerCase() &&
          items[items.length - 1].version.toLowerCase() === upper.toLowerCase(),
      );
      if (!page) throw new NotFoundError('registration page does not exist');
      return registrationPage(base, page);
    });
  }

  /** The package base address's list of versions. */
  versionList(owner: User, id: string): Promise<IndexDocument> {
    return this.document(owner, id, 'versions', versionList);
  }

  private async document(
    owner: User,
    id: string,
    variant: string,
    build: (entries: NugetEntry[]) => unknown,
  ): Promise<IndexDocument> {
    const found = await this.index.revisionOf({ ownerId: owner.id, type: NUGET, name: id });
    if (!found) throw packageNotFound();
    return this.documents.get(`${found.id}\n${variant}`, found.revision, async () => {
      const entries = await this.entries(owner, id);
      if (entries.length === 0) throw packageNotFound();
      return indexDocument(JSON.stringify(build(entries)));
    });
  }

  /**
   * The owner's packages whose id holds the text (or is it, when `exact`), by id, a page of them with all their
   * versions, and how many there are.
   */
  async search(
    owner: User,
    text: string,
    page: NugetPage,
    exact = false,
  ): Promise<{ total: number; packages: NugetEntry[][] }> {
    if (exact) {
      const entries = await this.entries(owner, text);
      const found = entries.length > 0 && page.skip === 0 && page.take > 0;
      return { total: entries.length > 0 ? 1 : 0, packages: found ? [entries] : [] };
    }
    const { names, total } = await this.index.searchNames({ ownerId: owner.id, type: NUGET }, text, page);
    const packages = await Promise.all(names.map((name) => this.entries(owner, name)));
    return { total, packages: packages.filter((entries) => entries.length > 0) };
  }

  /** A file of a version (.nupkg or .nuspec); a package download is counted. */
  async file(owner: User, id: string, version: string, fileName: string): Promise<PackageFileDownload> {
    const normal = normalizeNugetVersion(version) ?? version;
    const file = await this.index.downloadFile({ ownerId: owner.id, type: NUGET, name: id, version: normal, fileName });
    if (!file) throw new NotFoundError('package file does not exist');
    if (file.name === nugetFileNames.package(id, normal)) this.deps.repos.packages.countDownload(file.versionId);
    return file;
  }

  /** A PDB file by its name and PDB id, as a symbol server is asked for it. */
  async symbolFile(owner: User, fileName: string, pdbId: string): Promise<PackageFileRow> {
    const { packageProperties, packages } = this.deps.repos;
    const fileIds = await packageProperties.refsWith('file', SYMBOL_ID_PROPERTY, pdbId.toLowerCase());
    const files = await packages.filesNamed({ ownerId: owner.id, type: NUGET }, fileIds, fileName);
    if (files.length !== 1) throw new NotFoundError('symbol file does not exist');
    return files[0];
  }
}
