// Releases (Release rows) and their attachments (Attachment rows with a releaseId).
import type { Models } from './entities.ts';
import type { DbClient } from './prisma.ts';

export type ReleaseRow = Models.ReleaseModel;
export type AttachmentRow = Models.AttachmentModel;

export interface ReleaseFilter {
  /** Drafts are listed only for who may write releases. */
  includeDrafts: boolean;
  draft?: boolean;
  prerelease?: boolean;
  /** A substring of the title or the tag. */
  q?: string;
}

export type NewRelease = Omit<ReleaseRow, 'id' | 'createdAt'>;
export type NewAttachment = Omit<AttachmentRow, 'id' | 'createdAt' | 'downloadCount' | 'issueId' | 'commentId'>;

export class ReleaseRepository {
  constructor(private readonly client: DbClient) {}

  async list(
    repoId: number,
    filter: ReleaseFilter,
    page: { skip: number; take: number },
  ): Promise<{ rows: ReleaseRow[]; total: number }> {
    const isDraft = filter.includeDrafts ? filter.draft : false;
    const where = {
      repoId,
      ...(isDraft === undefined ? {} : { isDraft }),
      ...(filter.prerelease === undefined ? {} : { isPrerelease: filter.prerelease }),
      ...(filter.q ? { OR: [{ title: { contains: filter.q } }, { tagName: { contains: filter.q } }] } : {}),
    };
    const [rows, total] = await Promise.all([
      this.client.release.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], ...page }),
      this.client.release.count({ where }),
    ]);
    return { rows, total };
  }

  byId(repoId: number, id: number): Promise<ReleaseRow | null> {
    return this.client.release.findFirst({ where: { repoId, id } });
  }

  byTag(repoId: number, tagName: string): Promise<ReleaseRow | null> {
    return this.client.release.findUnique({ where: { repoId_tagName: { repoId, tagName } } });
  }

  /** The newest published release that is not a pre-release. */
  latest(repoId: number): Promise<ReleaseRow | null> {
    return this.client.release.findFirst({
      where: { repoId, isDraft: false, isPrerelease: false },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    });
  }

  create(release: NewRelease): Promise<ReleaseRow> {
    return this.client.release.create({ data: release });
  }

  update(id: number, changes: Partial<NewRelease> & { createdAt?: Date }): Promise<ReleaseRow> {
    return this.client.release.update({ where: { id }, data: changes });
  }

  /** Removes a release and its attachments' rows; answers the attachments' blob keys. */
  async delete(id: number): Promise<string[]> {
    const attachments = await this.client.attachment.findMany({ where: { releaseId: id }, select: { blobKey: true } });
    await this.client.attachment.deleteMany({ where: { releaseId: id } });
    await this.client.release.deleteMany({ where: { id } });
    return attachments.map((attachment) => attachment.blobKey);
  }

  attachmentsOf(releaseIds: readonly number[]): Promise<AttachmentRow[]> {
    if (releaseIds.length === 0) return Promise.resolve([]);
    return this.client.attachment.findMany({ where: { releaseId: { in: [...releaseIds] } }, orderBy: { id: 'asc' } });
  }

  attachment(releaseId: number, id: number): Promise<AttachmentRow | null> {
    return this.client.attachment.findFirst({ where: { releaseId, id } });
  }

  attachmentByUuid(uuid: string): Promise<AttachmentRow | null> {
    return this.client.attachment.findUnique({ where: { uuid } });
  }

  createAttachment(attachment: NewAttachment): Promise<AttachmentRow> {
    return this.client.attachment.create({ data: attachment });
  }

  renameAttachment(id: number, name: string): Promise<AttachmentRow> {
    return this.client.attachment.update({ where: { id }, data: { name } });
  }

  async deleteAttachment(id: number): Promise<void> {
    await this.client.attachment.deleteMany({ where: { id } });
  }

  async countDownload(id: number): Promise<void> {
    await this.client.attachment.updateMany({ where: { id }, data: { downloadCount: { increment: 1 } } });
  }

  /** Whether any attachment still holds these bytes. */
  async blobInUse(blobKey: string): Promise<boolean> {
    return (await this.client.attachment.count({ where: { blobKey } })) > 0;
  }
}
