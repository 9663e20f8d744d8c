// The PyPI registry's rules (Forgejo: routers/api/packages/pypi): an upload stored as a file of its version, the
// files of a project for its simple page, a file to download. Versions are compared as spelled (pip asks for the
// files the page links), project names in their PEP 503 form.
import type { Readable } from 'node:stream';
import type { User } from '../../db/entities.ts';
import type { IndexedFile } from '../../db/package-index.repository.ts';
import type { PackageFileRow } from '../../db/package.repository.ts';
import { NotFoundError } from '../../domain/errors.ts';
import type { HookEventsService } from '../../services/hook-events.service.ts';
import type { QuotaService } from '../../services/quota.service.ts';
import type { ServiceDeps } from '../../services/service-deps.ts';
import { PackagePublisher } from '../core/publish.ts';
import { normalizeProjectName } from './pypi-names.ts';
import { readUploadForm } from './upload-form.ts';
import { sizeBound } from '../core/size-bound.ts';

export const PYPI = 'pypi';

export interface PypiUploadRequest {
  fields: ReadonlyMap<string, string>;
  projectUrls: readonly string[];
  fileName: string;
  file: Readable;
}

export class PypiService {
  private readonly publisher: PackagePublisher;

  constructor(
    private readonly deps: ServiceDeps,
    quota: QuotaService,
    hookEvents: HookEventsService,
  ) {
    this.publisher = new PackagePublisher(deps, quota, hookEvents);
  }

  /**
   * Stores an uploaded distribution as a file of its version (the version is made by its first file): a file of
   * that name answers 409, bytes that do not match the sent digests 400, past `[packages] LIMIT_SIZE_PYPI` 413.
   */
  async upload(doer: User, owner: User, request: PypiUploadRequest): Promise<void> {
    const upload = readUploadForm(request.fields, request.fileName, request.projectUrls);
    const limit = this.deps.settings.packages.LIMIT_SIZE_PYPI;
    await this.publisher.publish(
      {
        owner,
        doer,
        key: { ownerId: owner.id, type: PYPI, name: upload.name, version: upload.version },
        fileName: upload.fileName,
        isLead: true,
        metadataJson: JSON.stringify(upload.metadata),
        expected: { ...(upload.sha256 ? { sha256: upload.sha256 } : {}), ...(upload.md5 ? { md5: upload.md5 } : {}) },
        maxBytes: sizeBound(limit),
      },
      request.file,
    );
  }

  /** Every file of the project, oldest version first; 404 for a project the owner does not have. */
  async projectFiles(owner: User, name: string): Promise<IndexedFile[]> {
    const files = await this.deps.repos.packageIndex.listFiles({
      ownerId: owner.id,
      type: PYPI,
      name: normalizeProjectName(name),
    });
    if (files.length === 0) throw new NotFoundError('package does not exist');
    return files;
  }

  /** The file to download, counted as a download of its version. */
  async file(owner: User, name: string, version: string, fileName: string): Promise<PackageFileRow> {
    const { packages } = this.deps.repos;
    const found = await packages.findVersion({
      ownerId: owner.id,
      type: PYPI,
      name: normalizeProjectName(name),
      version,
    });
    const file = found && (await packages.findFile(found.id, fileName));
    if (!found || !file) throw new NotFoundError('package file does not exist');
    packages.countDownload(found.id);
    return file;
  }
}
