// The pictures behind avatar_url: uploads cropped to a centred square and scaled, as Forgejo does
// (modules/avatar/avatar.go), and generated defaults, a symmetric 5×5 pattern in a colour derived from the id.
// Both are CPU-heavy: they run on the image thread (src/workers).
import { createHash } from 'node:crypto';
import { decodeImage, type ImageLimits, jimp } from './image.ts';

export async function renderUploadedAvatar(data: Buffer, size: number, limits: ImageLimits): Promise<Buffer> {
  const image = await decodeImage(data, limits);
  const side = Math.min(image.width, image.height);
  image.crop({ x: Math.floor((image.width - side) / 2), y: Math.floor((image.height - side) / 2), w: side, h: side });
  image.resize({ w: size, h: size });
  return image.getBuffer('image/png');
}

export async function renderDefaultAvatar(id: number, size: number): Promise<Buffer> {
  const seed = createHash('sha256').update(`anvil-avatar-${id}`).digest();
  const { Jimp } = jimp();
  const cell = Math.floor(size / 5);
  const colour = ((seed[0] << 24) | (seed[1] << 16) | (seed[2] << 8) | 0xff) >>> 0;
  const image = new Jimp({ width: size, height: size, color: 0xf0f0f0ff });
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
