// Releases (Forgejo: routers/api/v1/repo/release.go, services/release/release.go): a release names a tag; publishing
// one whose tag does not exist creates the tag (a real git tag, reported as a push) at its target; drafts make no
// tag and are seen only by who may write releases. Deleting a release keeps its tag, as Forgejo's API does.
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { User } from '../db/entities.ts';
import type { AttachmentRow, ReleaseFilter, ReleaseRow } from '../db/release.repository.ts';
import type { RepoWithOwner } from '../db/repository-details.ts';
import { ConflictError, NotFoundError, ValidationError } from '../domain/errors.ts';
import type { ListOptions } from '../domain/page.ts';
import { isValidRefName, readTags, RefConflictError, resolveCommit, updateRef } from '../infra/git/refs.ts';
import type { HookEventsService } from './hook-events.service.ts';
import type { PushService } from './push.service.ts';
import type { QuotaService } from './quota.service.ts';
import type { ServiceDeps } from './service-deps.ts';

export interface ReleaseInput {
  tagName?: string;
  target?: string;
  title?: string;
  note?: string;
  isDraft?: boolean;
  isPrerelease?: boolean;
  hideArchiveLinks?: boolean;
}

export interface ReleaseView {
  release: ReleaseRow;
  publisher: User | null;
  attachments: AttachmentRow[];
}

export class ReleaseService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly pushes: PushService,
    private readonly quota: QuotaService,
    private readonly hookEvents: HookEventsService,
  ) {}

  private dir(repo: RepoWithOwner): string {
    return this.deps.stores.repositories.directory(repo.ownerName, repo.name);
  }

  async list(repo: RepoWithOwner, filter: ReleaseFilter, page: ListOptions) {
    const { rows, total } = await this.deps.repos.releases.list(repo.id, filter, { skip: page.skip, take: page.limit });
    return { releases: await this.views(rows), total };
  }

  /** A release by id; a draft only for who may write (`seeDrafts`). */
  async get(repo: RepoWithOwner, id: number, seeDrafts: boolean): Promise<ReleaseView> {
    return (await this.views([await this.row(repo, id, seeDrafts)]))[0];
  }

  async byTag(repo: RepoWithOwner, tag: string, seeDrafts: boolean): Promise<ReleaseView> {
    const row = await this.deps.repos.releases.byTag(repo.id, tag);
    if (!row || (row.isDraft && !seeDrafts)) throw new NotFoundError(`release tag does not exist [tag: ${tag}]`);
    return (await this.views([row]))[0];
  }

  async latest(repo: RepoWithOwner): Promise<ReleaseView> {
    const row = await this.deps.repos.releases.latest(repo.id);
    if (!row) throw new NotFoundError('no published release');
    return (await this.views([row]))[0];
  }

  async create(doer: User, repo: RepoWithOwner, input: ReleaseInput): Promise<ReleaseView> {
    const tagName = input.tagName?.trim() ?? '';
    if (!(await isValidRefName('tags', tagName))) throw new ValidationError(`invalid tag name: ${tagName}`);
    if (await this.deps.repos.releases.byTag(repo.id, tagName))
      throw new ConflictError(`release already exists [tag: ${tagName}]`);
    const target = input.target || repo.defaultBranch;
    const sha = input.isDraft ? await this.tagCommit(repo, tagName) : await this.ensureTag(doer, repo, tagName, target);
    const row = await this.deps.repos.releases.create({
      repoId: repo.id,
      tagName,
      target,
      sha: sha ?? '',
      title: input.title ?? '',
      note: input.note ?? '',
      isDraft: input.isDraft ?? false,
      isPrerelease: input.isPrerelease ?? false,
      hideArchiveLinks: input.hideArchiveLinks ?? false,
      publisherId: doer.id,
    });
    const [view] = await this.views([row]);
    if (!row.isDraft) await this.report(doer, repo, 'published', view);
    return view;
  }

  async edit(doer: User, repo: RepoWithOwner, id: number, input: ReleaseInput): Promise<ReleaseView> {
    const current = await this.row(repo, id, true);
    const tagName = input.tagName?.trim() || current.tagName;
    if (tagName !== current.tagName) {
      if (!(await isValidRefName('tags', tagName))) throw new ValidationError(`invalid tag name: ${tagName}`);
      if (await this.deps.repos.releases.byTag(repo.id, tagName))
        throw new ConflictError(`release already exists [tag: ${tagName}]`);
    }
    const isDraft = input.isDraft ?? current.isDraft;
    const target = input.target || current.target || repo.defaultBranch;
    // Publishing (or renaming a published release) makes its tag if it does not exist yet.
    const sha = isDraft ? await this.tagCommit(repo, tagName) : await this.ensureTag(doer, repo, tagName, target);
    const row = await this.deps.repos.releases.update(current.id, {
      tagName,
      target,
      sha: sha ?? '',
      title: input.title ?? current.title,
      note: input.note ?? current.note,
      isDraft,
      isPrerelease: input.isPrerelease ?? current.isPrerelease,
      hideArchiveLinks: input.hideArchiveLinks ?? current.hideArchiveLinks,
      // A draft's publication date is when it is published.
      ...(current.isDraft && !isDraft ? { createdAt: new Date() } : {}),
    });
    const [view] = await this.views([row]);
    if (!isDraft) await this.report(doer, repo, current.isDraft ? 'published' : 'updated', view);
    return view;
  }

  async delete(doer: User, repo: RepoWithOwner, id: number): Promise<void> {
    const row = await this.row(repo, id, true);
    await this.removeRow(doer, repo, row);
  }

  async deleteByTag(doer: User, repo: RepoWithOwner, tag: string): Promise<void> {
    const row = await this.deps.repos.releases.byTag(repo.id, tag);
    if (!row) throw new NotFoundError(`release tag does not exist [tag: ${tag}]`);
    await this.removeRow(doer, repo, row);
  }

  // ---- attachments ----

  async attachments(repo: RepoWithOwner, releaseId: number, seeDrafts: boolean): Promise<AttachmentRow[]> {
    const row = await this.row(repo, releaseId, seeDrafts);
    return this.deps.repos.releases.attachmentsOf([row.id]);
  }

  async attachment(repo: RepoWithOwner, releaseId: number, id: number, seeDrafts: boolean): Promise<AttachmentRow> {
    await this.row(repo, releaseId, seeDrafts);
    const attachment = await this.deps.repos.releases.attachment(releaseId, id);
    if (!attachment) throw new NotFoundError(`attachment does not exist [id: ${id}]`);
    return attachment;
  }

  /**
   * Streams an upload into the attachment store, counted against the owner's quota for release attachments as it
   * arrives; the row is written once the bytes are complete. Nothing is kept when it fails.
   */
  async upload(
    doer: User,
    repo: RepoWithOwner,
    releaseId: number,
    file: { name: string; body: Readable; announcedLength?: number },
  ): Promise<AttachmentRow> {
    const release = await this.row(repo, releaseId, true);
    const name = file.name.trim();
    if (!name || /[/\\]/.test(name)) throw new ValidationError(`invalid attachment name: ${file.name}`);
    const hold = await this.quota.hold(
      repo.owner,
      'size:assets:attachments:releases',
      'attachmentsReleases',
      file.announcedLength,
    );
    const staged = await this.deps.attachmentBlobs.stage(file.body, { budget: hold }).catch(async (error) => {
      await hold.release();
      throw error;
    });
    try {
      await staged.publish();
      return await this.deps.transactions.run(async (repos) => {
        await hold.endIn(repos);
        return repos.releases.createAttachment({
          uuid: randomUUID(),
          repoId: repo.id,
          releaseId: release.id,
          uploaderId: doer.id,
          name,
          size: BigInt(staged.digests.size),
          blobKey: staged.digests.sha256,
        });
      });
    } finally {
      await staged.discard();
      await hold.release();
    }
  }

  async renameAttachment(repo: RepoWithOwner, releaseId: number, id: number, name: string): Promise<AttachmentRow> {
    const attachment = await this.attachment(repo, releaseId, id, true);
    if (!name.trim() || /[/\\]/.test(name)) throw new ValidationError(`invalid attachment name: ${name}`);
    return this.deps.repos.releases.renameAttachment(attachment.id, name.trim());
  }

  async deleteAttachment(repo: RepoWithOwner, releaseId: number, id: number): Promise<void> {
    const attachment = await this.attachment(repo, releaseId, id, true);
    await this.deps.repos.releases.deleteAttachment(attachment.id);
    await this.removeBlobs([attachment.blobKey]);
  }

  /** An attachment's bytes for a download, by its uuid or by release tag and name; counts the download. */
  async download(repo: RepoWithOwner | null, key: { uuid?: string; tag?: string; name?: string }, seeDrafts = false) {
    let attachment: AttachmentRow | null = null;
    if (key.uuid) attachment = await this.deps.repos.releases.attachmentByUuid(key.uuid);
    else if (repo && key.tag) {
      const release = await this.deps.repos.releases.byTag(repo.id, key.tag);
      if (release && (!release.isDraft || seeDrafts))
        attachment =
          (await this.deps.repos.releases.attachmentsOf([release.id])).find((row) => row.name === key.name) ?? null;
    }
    if (!attachment || attachment.releaseId === 0) throw new NotFoundError('attachment does not exist');
    await this.deps.repos.releases.countDownload(attachment.id);
    return {
      attachment,
      store: this.deps.attachmentBlobs,
    };
  }

  private async row(repo: RepoWithOwner, id: number, seeDrafts: boolean): Promise<ReleaseRow> {
    const row = await this.deps.repos.releases.byId(repo.id, id);
    if (!row || (row.isDraft && !seeDrafts)) throw new NotFoundError(`release does not exist [id: ${id}]`);
    return row;
  }

  private async removeRow(doer: User, repo: RepoWithOwner, row: ReleaseRow): Promise<void> {
    const [view] = await this.views([row]);
    const keys = await this.deps.transactions.run(async (repos) => {
      if (!row.isDraft) await this.hookEvents.release(repos, { repo, sender: doer, action: 'deleted', release: view });
      return repos.releases.delete(row.id);
    });
    await this.removeBlobs(keys);
  }

  /** The release webhook event (drafts are not announced, as in Forgejo). */
  private async report(doer: User, repo: RepoWithOwner, action: 'published' | 'updated', view: ReleaseView) {
    await this.deps.transactions.run((repos) =>
      this.hookEvents.release(repos, { repo, sender: doer, action, release: view }),
    );
  }

  /** Bytes no attachment refers to any more. */
  private async removeBlobs(keys: readonly string[]): Promise<void> {
    for (const key of new Set(keys)) {
      if (key && !(await this.deps.repos.releases.blobInUse(key))) await this.deps.attachmentBlobs.delete(key);
    }
  }

  private async tagCommit(repo: RepoWithOwner, tagName: string): Promise<string | null> {
    const [tag] = await readTags(this.dir(repo), tagName);
    return tag?.commitSha ?? null;
  }

  /** The tag's commit, creating the tag at `target` (a branch, tag or commit) when it does not exist. */
  private async ensureTag(doer: User, repo: RepoWithOwner, tagName: string, target: string): Promise<string> {
    const existing = await this.tagCommit(repo, tagName);
    if (existing) return existing;
    const dir = this.dir(repo);
    const sha = await resolveCommit(dir, target);
    if (!sha) throw new NotFoundError(`target does not exist [ref: ${target}]`);
    const push = await this.pushes.beginPush(doer, repo, dir);
    try {
      await updateRef(dir, `refs/tags/${tagName}`, sha, '');
    } catch (error) {
      if (error instanceof RefConflictError) throw new ConflictError(`tag already exists [name: ${tagName}]`);
      throw error;
    }
    await push.finish();
    return sha;
  }

  private async views(rows: ReleaseRow[]): Promise<ReleaseView[]> {
    const [publishers, attachments] = await Promise.all([
      this.deps.repos.users.listByIds([...new Set(rows.map((row) => row.publisherId))]),
      this.deps.repos.releases.attachmentsOf(rows.map((row) => row.id)),
    ]);
    const byId = new Map(publishers.map((user) => [user.id, user]));
    return rows.map((release) => ({
      release,
      publisher: byId.get(release.publisherId) ?? null,
      attachments: attachments.filter((attachment) => attachment.releaseId === release.id),
    }));
  }
}
