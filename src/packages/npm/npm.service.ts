// The npm registry's rules (Forgejo: routers/api/packages/npm/npm.go, services/packages): publish, the package's
// rows for its documents, tarballs, dist-tags, deprecation, unpublish and search. Publishing goes through the
// package core (src/packages/core/publish.ts); names and versions follow npm's rules (npm-names.ts).
import type { Readable } from 'node:stream';
import semver from 'semver';
import type { User } from '../../db/entities.ts';
import type { PackageFileDownload } from '../../db/hot-queries.ts';
import type { NpmPackageRows, NpmSearchRow } from '../../db/npm.repository.ts';
import type { PackageVersionRow, VersionKey } from '../../db/package.repository.ts';
import type { Repositories } from '../../db/repositories.ts';
import { BadRequestError, NotFoundError } from '../../domain/errors.ts';
import type { ListOptions, Page } from '../../domain/page.ts';
import type { HookEventsService } from '../../services/hook-events.service.ts';
import type { QuotaService } from '../../services/quota.service.ts';
import type { ServiceDeps } from '../../services/service-deps.ts';
import { PackagePublisher } from '../core/publish.ts';
import { removeUnreferencedBlobs } from '../core/remove-blobs.ts';
import { isValidDistTag, isValidNpmName, isValidNpmVersion, tarballName } from './npm-names.ts';
import { type JsonObject, readPublishBody } from './publish-body.ts';
import { abbreviatedPackument, fullPackument, modifiedAt, parseManifest } from './packument.ts';
import { type IndexDocument, IndexDocumentCache, indexDocument } from '../core/index-document.ts';
import { sizeBound } from '../core/size-bound.ts';

const NPM = 'npm';
const LATEST = 'latest';
/** What a stored version manifest leaves out: the registry's own fields, rebuilt on every read. */
const NOT_STORED = new Set(['_id', '_rev', 'dist', '_attachments', '_from', '_resolved', '_integrity']);

const packageNotFound = () => new NotFoundError('package does not exist');
const bad = (message: string) => new BadRequestError(message);

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The hex SHA-512 of npm's `sha512-<base64>` integrity, when it names one. */
function sha512Of(integrity: unknown): string | undefined {
  if (typeof integrity !== 'string') return undefined;
  const sha512 = integrity.split(/\s+/).find((item) => item.startsWith('sha512-'));
  return sha512 ? Buffer.from(sha512.slice('sha512-'.length), 'base64').toString('hex') : undefined;
}

/** The version a tarball's file name `<name>-<version>.tgz` names; 404 for any other name. */
function versionInFileName(name: string, fileName: string): string {
  const prefix = `${name.slice(name.lastIndexOf('/') + 1)}-`;
  if (!fileName.startsWith(prefix) || !fileName.endsWith('.tgz')) throw packageNotFound();
  return fileName.slice(prefix.length, -'.tgz'.length);
}

export class NpmService {
  private readonly publisher: PackagePublisher;
  private readonly packuments = new IndexDocumentCache();

  constructor(
    private readonly deps: ServiceDeps,
    quota: QuotaService,
    private readonly hookEvents: HookEventsService,
  ) {
    this.publisher = new PackagePublisher(deps, quota, hookEvents);
  }

  private get npm() {
    return this.deps.repos.npm;
  }

  /**
   * `PUT /{name}`: a publish (the document carries the tarball as an attachment), or without one a change of the
   * versions' deprecation, as `npm deprecate` sends the packument back.
   */
  async publishOrUpdate(doer: User, owner: User, name: string, body: Readable): Promise<void> {
    if (!isValidNpmName(name)) throw bad('invalid package name');
    const { document, attached } = await readPublishBody(body, (read, _attachment, data) =>
      this.publishVersion(doer, owner, name, read, data),
    );
    if (!attached) await this.updateDeprecations(owner, name, document);
  }

  private async publishVersion(
    doer: User,
    owner: User,
    name: string,
    document: JsonObject,
    data: Readable,
  ): Promise<void> {
    if (document.name !== undefined && document.name !== name) throw bad('the package name does not match the path');
    const versions = isObject(document.versions) ? Object.keys(document.versions) : [];
    if (versions.length !== 1) throw bad('a publish holds exactly one version, before its attachment');
    const [version] = versions;
    const manifest = (document.versions as JsonObject)[version];
    if (!isObject(manifest) || manifest.name !== name || manifest.version !== version)
      throw bad('the version does not name the package and version');
    if (!isValidNpmVersion(version)) throw bad('invalid package version');
    const tags = this.tagsOfPublish(document, version);
    const dist = isObject(manifest.dist) ? manifest.dist : {};
    const stored = Object.fromEntries(Object.entries(manifest).filter(([key]) => !NOT_STORED.has(key)));
    const limit = this.deps.settings.packages.LIMIT_SIZE_NPM;
    await this.publisher.publish(
      {
        owner,
        doer,
        key: { ownerId: owner.id, type: NPM, name, version },
        fileName: tarballName(name, version),
        metadataJson: JSON.stringify(stored),
        newVersionOnly: true,
        tags,
        expected: {
          ...(typeof dist.shasum === 'string' ? { sha1: dist.shasum } : {}),
          ...(sha512Of(dist.integrity) ? { sha512: sha512Of(dist.integrity) } : {}),
        },
        maxBytes: sizeBound(limit),
      },
      data,
    );
  }

  /** The document's dist-tags that name the version (npm sends `{"latest": v}` or `--tag`'s); `latest` when none. */
  private tagsOfPublish(document: JsonObject, version: string): string[] {
    const given = isObject(document['dist-tags']) ? document['dist-tags'] : {};
    const tags = Object.entries(given)
      .filter(([, value]) => value === version)
      .map(([tag]) => tag);
    for (const tag of tags) if (!isValidDistTag(tag)) throw bad(`invalid dist-tag: ${tag}`);
    return tags.length > 0 ? tags : [LATEST];
  }

  /** Each version the document names takes its `deprecated` message (none or empty: no longer deprecated). */
  private async updateDeprecations(owner: User, name: string, document: JsonObject): Promise<void> {
    const rows = await this.package(owner, name);
    const sent = isObject(document.versions) ? document.versions : {};
    await this.deps.transactions.run(async (repos) => {
      for (const row of rows.versions) {
        const manifest = sent[row.version];
        if (!isObject(manifest)) continue;
        const stored = parseManifest(row.metadataJson);
        const message = typeof manifest.deprecated === 'string' ? manifest.deprecated : '';
        if ((stored.deprecated ?? '') === message) continue;
        if (message === '') delete stored.deprecated;
        else stored.deprecated = message;
        await repos.npm.updateMetadata(rows.packageId, row.versionId, JSON.stringify(stored));
      }
    });
  }

  /**
   * The packument as `registryUrl` serves it, full or abbreviated: the one kept while the package's revision is the
   * same, else built from its rows.
   */
  async packument(owner: User, name: string, abbreviated: boolean, registryUrl: string): Promise<IndexDocument> {
    const found = await this.npm.revisionOf(owner.id, name.toLowerCase());
    if (!found) throw packageNotFound();
    const key = `${found.id}\n${abbreviated ? 'a' : 'f'}\n${registryUrl}`;
    return this.packuments.get(key, found.revision, async () => {
      const rows = await this.package(owner, name);
      const document = abbreviated ? abbreviatedPackument(rows, registryUrl) : fullPackument(rows, registryUrl);
      return indexDocument(JSON.stringify(document), modifiedAt(rows));
    });
  }

  /** The package's versions, tarballs and tags (404 when it has none). */
  async package(owner: User, name: string): Promise<NpmPackageRows> {
    const rows = await this.npm.packageRows(owner.id, name.toLowerCase());
    if (!rows) throw packageNotFound();
    return rows;
  }

  /** The tarball of a version, counted as a download. */
  async tarball(owner: User, name: string, version: string, fileName: string): Promise<PackageFileDownload> {
    const file = await this.npm.tarball(owner.id, name, version, fileName);
    if (!file) throw new NotFoundError('package file does not exist');
    this.deps.repos.packages.countDownload(file.versionId);
    return file;
  }

  /** npm's own tarball path names the file only: `<name>-<version>.tgz`. */
  async tarballByFileName(owner: User, name: string, fileName: string): Promise<PackageFileDownload> {
    return this.tarball(owner, name, versionInFileName(name, fileName), fileName);
  }

  async tags(owner: User, name: string): Promise<Record<string, string>> {
    const rows = await this.package(owner, name);
    return Object.fromEntries(rows.tags.map((tag) => [tag.name, tag.version]));
  }

  async addTag(owner: User, name: string, tag: string, version: string): Promise<void> {
    if (!isValidDistTag(tag)) throw bad('invalid dist-tag');
    const found = await this.version(owner, name, version);
    await this.npm.setTag(found.packageId, tag, found.id);
  }

  /** `latest` stays: npm itself refuses to remove it. */
  async removeTag(owner: User, name: string, tag: string): Promise<void> {
    if (tag === LATEST) throw bad('the latest tag cannot be removed');
    const rows = await this.package(owner, name);
    if (!(await this.npm.deleteTag(rows.packageId, tag))) throw new NotFoundError('dist-tag does not exist');
  }

  async deleteVersion(doer: User, owner: User, name: string, version: string): Promise<void> {
    const found = await this.version(owner, name, version);
    await this.deleteVersions(doer, owner, [found]);
  }

  async deleteVersionByFileName(doer: User, owner: User, name: string, fileName: string): Promise<void> {
    await this.deleteVersion(doer, owner, name, versionInFileName(name, fileName));
  }

  async deletePackage(doer: User, owner: User, name: string): Promise<void> {
    const rows = await this.package(owner, name);
    const versions: PackageVersionRow[] = [];
    for (const row of rows.versions) {
      const found = await this.deps.repos.packages.findVersion(this.key(owner, name, row.version));
      if (found) versions.push(found);
    }
    await this.deleteVersions(doer, owner, versions);
  }

  search(owner: User, text: string, page: ListOptions): Promise<Page<NpmSearchRow>> {
    return this.npm.search(owner.id, text, page);
  }

  /**
   * Deletes the versions, announcing each to the owner's hooks; when `latest` went with one, it moves to the highest
   * version left, as `npm unpublish` itself sets it.
   */
  private async deleteVersions(doer: User, owner: User, versions: PackageVersionRow[]): Promise<void> {
    if (versions.length === 0) return;
    const orphans = await this.deps.transactions.run(async (repos) => {
      const hashes: string[] = [];
      for (const version of versions) {
        await this.hookEvents.package(repos, {
          owner,
          sender: doer,
          action: 'deleted',
          package: { version, owner, creator: doer, repository: null },
        });
        hashes.push(...(await repos.packages.deleteVersion(version)));
      }
      await this.keepLatest(repos, owner, versions[0].package.name);
      return hashes;
    });
    await removeUnreferencedBlobs(this.deps, orphans);
  }

  private async keepLatest(repos: Repositories, owner: User, name: string): Promise<void> {
    const rows = await repos.npm.packageRows(owner.id, name.toLowerCase());
    if (!rows || rows.tags.some((tag) => tag.name === LATEST)) return;
    const highest = rows.versions.reduce((a, b) => (semver.gt(b.version, a.version) ? b : a));
    await repos.npm.setTag(rows.packageId, LATEST, highest.versionId);
  }

  private key(owner: User, name: string, version: string): VersionKey {
    return { ownerId: owner.id, type: NPM, name, version };
  }

  private async version(owner: User, name: string, version: string): Promise<PackageVersionRow> {
    const found = await this.deps.repos.packages.findVersion(this.key(owner, name, version));
    if (!found) throw packageNotFound();
    return found;
  }
}
