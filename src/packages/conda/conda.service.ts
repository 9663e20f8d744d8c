// The Conda registry's rules (Forgejo: routers/api/packages/conda): an uploaded archive stored under the name and
// version its info/index.json gives, as a file of its subdir (the file's composite key) in a channel (the package
// name's prefix, `channel/name`); repodata.json and channeldata.json built from every file of the owner's channel,
// kept while no Conda package of the owner changed.
import type { Readable } from 'node:stream';
import type { User } from '../../db/entities.ts';
import type { TypeFile } from '../../db/package-index.repository.ts';
import type { PackageFileRow } from '../../db/package.repository.ts';
import { BadRequestError, NotFoundError } from '../../domain/errors.ts';
import type { HookEventsService } from '../../services/hook-events.service.ts';
import type { QuotaService } from '../../services/quota.service.ts';
import type { ServiceDeps } from '../../services/service-deps.ts';
import { type IndexDocument, IndexDocumentCache, indexDocument } from '../core/index-document.ts';
import { PackagePublisher } from '../core/publish.ts';
import { condaFormatOf, readCondaArchive } from './conda-archive.ts';
import { type CondaFileMetadata, type CondaVersionMetadata, condaFileName } from './conda-metadata.ts';
import { type ChannelFile, channeldata, repodata } from './repodata.ts';
import { sizeBound } from '../core/size-bound.ts';

export const CONDA = 'conda';
const FILE_METADATA = 'conda.metadata';

/** A channel is a path of plain segments (or none: the owner's default channel). */
const CHANNEL_SEGMENT = /^[A-Za-z0-9][A-Za-z0-9_.+-]{0,99}$/;

export function isValidChannel(channel: string): boolean {
  return (
    channel === '' || (channel.split('/').length <= 10 && channel.split('/').every((s) => CHANNEL_SEGMENT.test(s)))
  );
}

function packageName(channel: string, name: string): string {
  return channel === '' ? name : `${channel}/${name}`;
}

/** The package's own name when it is in the channel, else null. */
function nameInChannel(fullName: string, channel: string): string | null {
  const prefix = channel === '' ? '' : `${channel.toLowerCase()}/`;
  if (!fullName.toLowerCase().startsWith(prefix)) return null;
  const name = fullName.slice(prefix.length);
  return name.includes('/') ? null : name;
}

function parseJson<T>(json: string | undefined, fallback: T): T {
  try {
    return json === undefined ? fallback : (JSON.parse(json) as T);
  } catch {
    return fallback;
  }
}

export interface CondaUpload {
  channel: string;
  /** The name in the path: only its extension counts (the stored name comes from info/index.json). */
  fileName: string;
  body: Readable;
  announcedLength?: number;
}

export class CondaService {
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
   * Stores an uploaded .tar.bz2 or .conda: read as it streams in; a file of that name in its subdir answers 409,
   * a malformed archive 400, past `[packages] LIMIT_SIZE_CONDA` 413.
   */
  async upload(doer: User, owner: User, upload: CondaUpload): Promise<void> {
    const format = condaFormatOf(upload.fileName);
    if (!format) throw new BadRequestError('a Conda package is a .tar.bz2 or a .conda file');
    if (!isValidChannel(upload.channel)) throw new BadRequestError('invalid channel');
    const limit = this.deps.settings.packages.LIMIT_SIZE_CONDA;
    await this.publisher.publishInspected(
      { owner, maxBytes: sizeBound(limit), announcedLength: upload.announcedLength },
      upload.body,
      (copy) => readCondaArchive(format, copy),
      (pkg) => ({
        owner,
        doer,
        key: { ownerId: owner.id, type: CONDA, name: packageName(upload.channel, pkg.name), version: pkg.version },
        fileName: condaFileName(pkg),
        compositeKey: pkg.subdir,
        isLead: true,
        metadataJson: JSON.stringify(pkg.versionMetadata),
        properties: { 'conda.subdir': pkg.subdir, [FILE_METADATA]: JSON.stringify(pkg.fileMetadata) },
      }),
    );
  }

  /** repodata.json of the channel's subdir: empty while the channel has files in other subdirs, 404 with none. */
  repodata(owner: User, channel: string, subdir: string): Promise<IndexDocument> {
    return this.document(owner, `repodata:${channel}:${subdir}`, async () => {
      const files = await this.channelFiles(owner, channel);
      return JSON.stringify(
        repodata(
          subdir,
          files.filter((file) => file.row.compositeKey === subdir),
        ),
      );
    });
  }

  channeldata(owner: User, channel: string): Promise<IndexDocument> {
    return this.document(owner, `channeldata:${channel}`, async () =>
      JSON.stringify(channeldata(await this.channelFiles(owner, channel))),
    );
  }

  /** The file to download, counted as a download of its version. */
  async file(owner: User, channel: string, subdir: string, fileName: string): Promise<PackageFileRow> {
    const rows = await this.deps.repos.packageIndex.listTypeFiles({
      ownerId: owner.id,
      type: CONDA,
      compositeKey: subdir,
      fileName: fileName.toLowerCase(),
    });
    const row = rows.find((candidate) => nameInChannel(candidate.packageName, channel) !== null);
    const { packages } = this.deps.repos;
    const file = row && (await packages.findFile(row.versionId, row.fileName, subdir));
    if (!row || !file) throw new NotFoundError('package file does not exist');
    packages.countDownload(row.versionId);
    return file;
  }

  private async document(owner: User, key: string, build: () => Promise<string>): Promise<IndexDocument> {
    const state = await this.deps.repos.ownerPackageIndex.revision(owner.id, CONDA);
    return this.documents.get(`${owner.id}:${key}`, state, async () => indexDocument(await build()));
  }

  /** Every file of the channel, oldest version first, with its metadata; 404 for a channel without any. */
  private async channelFiles(owner: User, channel: string): Promise<ChannelFile[]> {
    const rows = await this.deps.repos.packageIndex.listTypeFiles({
      ownerId: owner.id,
      type: CONDA,
      fileProperty: FILE_METADATA,
    });
    const files = rows.flatMap((row) => {
      const name = nameInChannel(row.packageName, channel);
      return name === null ? [] : [withMetadata(name, row)];
    });
    if (files.length === 0) throw new NotFoundError('channel does not exist');
    return files;
  }
}

function withMetadata(name: string, row: TypeFile): ChannelFile {
  return {
    name,
    row,
    version: parseJson<CondaVersionMetadata>(row.metadataJson, {}),
    file: parseJson<CondaFileMetadata>(row.fileProperty || undefined, {
      is_conda: false,
      build: '',
      build_number: 0,
      depends: [],
    }),
  };
}
