// Uploaded avatars (stored as 290×290 PNG named by their hash in the avatar store) and generated default avatars
// (Forgejo: services/user/avatar.go, modules/avatar).
import type { Repository, User } from '../db/entities.ts';
import { createHash } from 'node:crypto';
import type { OrgRepository } from '../db/org.repository.ts';
import { checkImageHeader, ImageError } from '../lib/image.ts';
import { LRUCache } from 'lru-cache';
import { BadRequestError, NotFoundError } from '../domain/errors.ts';
import { ImageThread } from '../infra/workers/image-thread.ts';
import type { ServiceDeps } from './service-deps.ts';

/** Forgejo's DefaultAvatarSize; the upload limits are [picture] AVATAR_MAX_FILE_SIZE, AVATAR_MAX_WIDTH/HEIGHT. */
export const AVATAR_SIZE = 290;
const AVATAR_FILE_NAME = /^[0-9a-f]{64}$/;
/** Rendered default avatars kept: a few KB each, and they depend on nothing but the id. */
const DEFAULT_AVATAR_CACHE_SIZE = 2000;

export interface AvatarImage {
  png: Buffer;
  /** A strong validator for If-None-Match. */
  etag: string;
}

function withEtag(png: Buffer): AvatarImage {
  return { png, etag: `"${createHash('sha256').update(png).digest('hex').slice(0, 32)}"` };
}

/** Strict standard base64, as Go's StdEncoding reads it (whitespace between lines allowed). */
function decodeBase64(text: string): Buffer | null {
  const compact = text.replace(/[\r\n]/g, '');
  if (compact.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(compact)) return null;
  return Buffer.from(compact, 'base64');
}

export class AvatarService {
  private readonly orgRows: OrgRepository;
  private readonly images = new ImageThread();
  /** Promises, so concurrent requests for one id share a single rendering. */
  readonly defaultAvatars = new LRUCache<number, Promise<AvatarImage>>({ max: DEFAULT_AVATAR_CACHE_SIZE });

  constructor(private readonly deps: ServiceDeps) {
    this.orgRows = deps.repos.orgs;
  }

  private get files() {
    return this.deps.stores.avatars;
  }

  /** POST /orgs/{org}/avatar and /user/avatar: an organization's or a user's own. */
  async uploadOwnerAvatar(org: User, base64: string): Promise<void> {
    const data = decodeBase64(base64 ?? '');
    if (!data) throw new BadRequestError('image is not valid base64');
    const png = await this.toAvatarPng(data);
    const hash = createHash('sha256').update(`${org.id}-`).update(png).digest('hex');
    await this.files.save(hash, png);
    await this.orgRows.setAvatar(org.id, hash);
    if (org.avatar && org.avatar !== hash) await this.files.remove(org.avatar);
  }

  /** DELETE /orgs/{org}/avatar and /user/avatar: back to the generated default. */
  async deleteOwnerAvatar(org: User): Promise<void> {
    if (!org.avatar) return;
    await this.orgRows.setAvatar(org.id, '');
    await this.files.remove(org.avatar);
  }

  /**
   * POST /repos/{owner}/{repo}/avatar (Forgejo: services/repository/avatar.go): stored like an owner's, named by the
   * hash of the repository id and the image, so two repositories with one image keep separate files.
   */
  async uploadRepoAvatar(repo: Pick<Repository, 'id' | 'avatar'>, base64: string): Promise<void> {
    const data = decodeBase64(base64);
    if (!data) throw new BadRequestError('image is not valid base64');
    const png = await this.toAvatarPng(data);
    const hash = createHash('sha256').update(`repo-${repo.id}-`).update(png).digest('hex');
    await this.files.save(hash, png);
    await this.deps.repos.repositories.update(repo.id, { avatar: hash });
    if (repo.avatar && repo.avatar !== hash) await this.files.remove(repo.avatar);
  }

  /** DELETE /repos/{owner}/{repo}/avatar: back to none (Forgejo shows no default for repositories). */
  async deleteRepoAvatar(repo: Pick<Repository, 'id' | 'avatar'>): Promise<void> {
    if (!repo.avatar) return;
    await this.deps.repos.repositories.update(repo.id, { avatar: '' });
    await this.files.remove(repo.avatar);
  }

  /** Refuses from the headers what is too large, then decodes and scales on the image thread. */
  private async toAvatarPng(data: Buffer): Promise<Buffer> {
    const { AVATAR_MAX_FILE_SIZE, AVATAR_MAX_WIDTH, AVATAR_MAX_HEIGHT } = this.deps.settings.picture;
    if (data.length > AVATAR_MAX_FILE_SIZE)
      throw new BadRequestError(`image is too large: ${data.length} bytes, at most ${AVATAR_MAX_FILE_SIZE}`);
    const limits = { maxWidth: AVATAR_MAX_WIDTH, maxHeight: AVATAR_MAX_HEIGHT };
    try {
      checkImageHeader(data, limits);
      return await this.images.run({ kind: 'uploaded-avatar', data, size: AVATAR_SIZE, limits });
    } catch (error) {
      if (!(error instanceof ImageError)) throw error;
      if (error.reason === 'failed')
        this.deps.log.warn({ err: error.message }, 'avatar: the image could not be processed');
      throw new BadRequestError(error.reason === 'failed' ? 'the image could not be decoded' : error.message);
    }
  }

  /** GET /avatars/{hash}: a stored avatar; its name is the hash of its content. */
  async stored(hash: string): Promise<AvatarImage> {
    if (!AVATAR_FILE_NAME.test(hash)) throw new NotFoundError();
    const png = await this.files.read(hash);
    if (!png) throw new NotFoundError();
    return { png, etag: `"${hash}"` };
  }

  /** GET /avatars/default/{id}: rendered once per id on the image thread, then served from memory. */
  async generated(id: number): Promise<AvatarImage> {
    const owner = await this.deps.repos.users.byId(id);
    if (!owner) throw new NotFoundError();
    let image = this.defaultAvatars.get(id);
    if (!image) {
      image = this.images.run({ kind: 'default-avatar', id, size: AVATAR_SIZE }).then(withEtag);
      this.defaultAvatars.set(id, image);
      image.catch(() => this.defaultAvatars.delete(id));
    }
    return image;
  }
}
