// The Vagrant registry's rules (Forgejo: routers/api/packages/vagrant): a box uploaded per version and provider
// (`<provider>.box`), checked as it streams in; the box's metadata document; downloads.
import { pipeline, type Readable } from 'node:stream';
import type { User } from '../../db/entities.ts';
import type { PackageFileRow } from '../../db/package.repository.ts';
import { BadRequestError, NotFoundError } from '../../domain/errors.ts';
import type { HookEventsService } from '../../services/hook-events.service.ts';
import type { QuotaService } from '../../services/quota.service.ts';
import type { ServiceDeps } from '../../services/service-deps.ts';
import { type IndexDocument, IndexDocumentCache, indexDocument } from '../core/index-document.ts';
import { PackagePublisher, type PublishedFile } from '../core/publish.ts';
import { boxArchiveCheck } from './box-archive.ts';
import { boxDocument } from './box-document.ts';
import { sizeBound } from '../core/size-bound.ts';

export const VAGRANT = 'vagrant';

const BOX_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
/** Vagrant's versions: up to three numbers, an optional pre-release and build. */
const BOX_VERSION = /^v?\d+(\.\d+){0,2}(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/;
const PROVIDER_FILE = /^[a-z0-9][a-z0-9_-]{0,63}\.box$/;

const boxNotFound = () => new NotFoundError('box does not exist');

export interface BoxUpload {
  name: string;
  version: string;
  /** `<provider>.box`, as the upload's path names it. */
  providerFile: string;
  body: Readable;
  announcedLength?: number;
}

export class VagrantService {
  private readonly publisher: PackagePublisher;
  private readonly documents = new IndexDocumentCache();

  constructor(
    private readonly deps: ServiceDeps,
    quota: QuotaService,
    hookEvents: HookEventsService,
  ) {
    this.publisher = new PackagePublisher(deps, quota, hookEvents);
  }

  /**
   * Stores a box as the file of its version for its provider (the version is made by its first provider): a
   * provider the version has answers 409, a malformed box 400, past `[packages] LIMIT_SIZE_VAGRANT` or the quota 413.
   */
  async upload(doer: User, owner: User, upload: BoxUpload): Promise<void> {
    const fileName = upload.providerFile.toLowerCase();
    if (!BOX_NAME.test(upload.name)) throw new BadRequestError('invalid box name');
    if (!BOX_VERSION.test(upload.version)) throw new BadRequestError('invalid box version');
    if (!PROVIDER_FILE.test(fileName)) throw new BadRequestError('the file must be named <provider>.box');
    const limit = this.deps.settings.packages.LIMIT_SIZE_VAGRANT;
    const box = boxArchiveCheck();
    const file: PublishedFile = {
      owner,
      doer,
      key: { ownerId: owner.id, type: VAGRANT, name: upload.name, version: upload.version },
      fileName,
      // Read when the rows are written, after the whole box has streamed through its check.
      get metadataJson() {
        return JSON.stringify(box.metadata());
      },
      announcedLength: upload.announcedLength,
      maxBytes: sizeBound(limit),
    };
    const checked = pipeline(upload.body, box.check, () => undefined);
    try {
      await this.publisher.publish(file, checked);
    } catch (error) {
      throw box.check.failure instanceof BadRequestError ? box.check.failure : error;
    }
  }

  /** The box's metadata document: the one kept while the box's revision is the same, else built from its rows. */
  async document(owner: User, name: string, boxUrl: string): Promise<IndexDocument> {
    const key = { ownerId: owner.id, type: VAGRANT, name };
    const { packageIndex } = this.deps.repos;
    const found = await packageIndex.revisionOf(key);
    if (!found) throw boxNotFound();
    return this.documents.get(`${found.id}\n${boxUrl}`, found.revision, async () => {
      const [files, boxName] = await Promise.all([packageIndex.listFiles(key), packageIndex.packageName(key)]);
      if (files.length === 0) throw boxNotFound();
      return indexDocument(JSON.stringify(boxDocument(boxName ?? name, files, boxUrl)));
    });
  }

  /** The file to download, counted as a download of its version. */
  async file(owner: User, name: string, version: string, fileName: string): Promise<PackageFileRow> {
    const { packages } = this.deps.repos;
    const found = await packages.findVersion({ ownerId: owner.id, type: VAGRANT, name, version });
    const file = found && (await packages.findFile(found.id, fileName));
    if (!found || !file) throw new NotFoundError('box file does not exist');
    packages.countDownload(found.id);
    return file;
  }
}
