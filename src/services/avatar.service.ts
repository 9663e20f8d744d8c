// Uploaded avatars (stored as 290×290 PNG under <APP_DATA_PATH>/avatars/<hash>) and generated default avatars
// (Forgejo: services/user/avatar.go, modules/avatar).
import type { User } from '../db/prisma.ts';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { OrgRepository } from '../db/org.repository.ts';
import { decodeImage, jimp } from '../domain/image.ts';
import { BadRequestError, NotFoundError } from '../errors.ts';
import type { ServiceDeps } from './index.ts';

/** Forgejo's DefaultAvatarSize and its upload limits (AVATAR_MAX_FILE_SIZE, AVATAR_MAX_WIDTH/HEIGHT). */
export const AVATAR_SIZE = 290;
const MAX_FILE_SIZE = 1024 * 1024;
const MAX_DIMENSION = 4096;
const AVATAR_FILE_NAME = /^[0-9a-f]{64}$/;

/** Strict standard base64, as Go's StdEncoding reads it (whitespace between lines allowed). */
function decodeBase64(text: string): Buffer | null {
  const compact = text.replace(/[\r\n]/g, '');
  if (compact.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(compact)) return null;
  return Buffer.from(compact, 'base64');
}

export class AvatarService {
  private readonly orgRows: OrgRepository;

  constructor(
    private readonly deps: ServiceDeps,
  ) {
    this.orgRows = new OrgRepository(deps.db.prisma);
  }

  private get directory(): string {
    return path.join(this.deps.settings.server.APP_DATA_PATH, 'avatars');
  }

  /** POST /orgs/{org}/avatar. */
  async uploadOrgAvatar(org: User, base64: string): Promise<void> {
    const data = decodeBase64(base64 ?? '');
    if (!data) throw new BadRequestError('image is not valid base64');
    const png = await this.toAvatarPng(data);
    const hash = createHash('sha256').update(`${org.id}-`).update(png).digest('hex');
    fs.mkdirSync(this.directory, { recursive: true });
    fs.writeFileSync(path.join(this.directory, hash), png);
    await this.orgRows.setAvatar(org.id, hash);
    if (org.avatar && org.avatar !== hash) fs.rmSync(path.join(this.directory, org.avatar), { force: true });
  }

  /** DELETE /orgs/{org}/avatar: back to the generated default. */
  async deleteOrgAvatar(org: User): Promise<void> {
    if (!org.avatar) return;
    await this.orgRows.setAvatar(org.id, '');
    fs.rmSync(path.join(this.directory, org.avatar), { force: true });
  }

  private async toAvatarPng(data: Buffer): Promise<Buffer> {
    if (data.length > MAX_FILE_SIZE) throw new BadRequestError(`image is too large: ${data.length} bytes, at most ${MAX_FILE_SIZE}`);
    let image: Awaited<ReturnType<typeof decodeImage>>;
    try {
      image = await decodeImage(data);
    } catch {
      throw new BadRequestError('the data is not an image of a supported type (PNG, JPEG, GIF, BMP, TIFF)');
    }
    if (image.width > MAX_DIMENSION || image.height > MAX_DIMENSION) {
      throw new BadRequestError(`image is too large: ${image.width}×${image.height}, at most ${MAX_DIMENSION}×${MAX_DIMENSION}`);
    }
    // Crop to a centred square, then scale, as Forgejo does.
    const side = Math.min(image.width, image.height);
    image.crop({ x: Math.floor((image.width - side) / 2), y: Math.floor((image.height - side) / 2), w: side, h: side });
    image.resize({ w: AVATAR_SIZE, h: AVATAR_SIZE });
    return image.getBuffer('image/png');
  }

  /** GET /avatars/{hash}: a stored avatar. */
  async stored(hash: string): Promise<Buffer> {
    if (!AVATAR_FILE_NAME.test(hash)) throw new NotFoundError();
    try {
      return fs.readFileSync(path.join(this.directory, hash));
    } catch {
      throw new NotFoundError();
    }
  }

  /** GET /avatars/default/{id}: a symmetric 5×5 pattern in a colour, both derived from the id. */
  async generated(id: number): Promise<Buffer> {
    const owner = await this.deps.db.hot.userById(id);
    if (!owner) throw new NotFoundError();
    const seed = createHash('sha256').update(`anvil-avatar-${id}`).digest();
    const { Jimp } = jimp();
    const cell = 58; // 5 cells of 58 px = 290
    const colour = ((seed[0] << 24) | (seed[1] << 16) | (seed[2] << 8) | 0xff) >>> 0;
    const image = new Jimp({ width: AVATAR_SIZE, height: AVATAR_SIZE, color: 0xf0f0f0ff });
    for (let row = 0; row < 5; row++) {
      for (let column = 0; column < 3; column++) {
        if ((seed[3 + row * 3 + column] & 1) === 0) continue;
        for (const x of new Set([column, 4 - column])) {
          image.scan(x * cell, row * cell, cell, cell, (px, py, idx) => {
            image.bitmap.data.writeUInt32BE(colour, idx);
          });
        }
      }
    }
    return image.getBuffer('image/png');
  }
}
