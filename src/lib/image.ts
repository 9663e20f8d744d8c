// Image formats, sizes and decoding. A small file can declare an enormous picture (a 31 KB PNG of 16000×16000
// decodes to 1 GB), so sizes are read from the headers and checked before any pixel is decoded, and the decoders
// are given the same bounds in case a header lies. jimp's own content sniffing is avoided: it finds the format
// through a dynamic import of `file-type`, which some module loaders (jest's among them) refuse.
import zlib from 'node:zlib';
import type * as ImageSize from 'image-size';
import type { JimpInstance } from 'jimp';

type JimpModule = typeof import('jimp');
let jimpModule: JimpModule | undefined;
/** Loaded on first use: the image codecs are heavy and most processes never touch an image. */
export function jimp(): JimpModule {
  jimpModule ??= require('jimp') as JimpModule;
  return jimpModule;
}

/** Formats with a single picture each (TIFF, which jimp decodes page by page, all of them, is left out). */
const SIGNATURES: [string, number[]][] = [
  ['image/png', [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
  ['image/jpeg', [0xff, 0xd8, 0xff]],
  ['image/gif', [0x47, 0x49, 0x46, 0x38]],
  ['image/bmp', [0x42, 0x4d]],
];

export function sniffImageType(data: Uint8Array): string | null {
  return (
    SIGNATURES.find(([, bytes]) => data.length >= bytes.length && bytes.every((b, i) => data[i] === b))?.[0] ?? null
  );
}

interface GifFrames {
  frameInfo(index: number): { x: number; y: number; width: number; height: number };
}

export interface ImageLimits {
  maxWidth: number;
  maxHeight: number;
}

export class ImageError extends Error {
  constructor(
    readonly reason: 'unsupported' | 'too-large' | 'failed',
    message: string,
  ) {
    super(message);
  }
}

/** Width and height as the header declares them; null when there is no header to read. */
export function declaredSize(data: Uint8Array): { width: number; height: number } | null {
  // Loaded here: most processes never read an image, and its 26 modules are a share of a start.
  const { imageSize } = require('image-size') as typeof ImageSize;
  try {
    const { width, height } = imageSize(data);
    return Number.isInteger(width) && Number.isInteger(height) ? { width, height } : null;
  } catch {
    return null;
  }
}

function checkSize(width: number, height: number, limits: ImageLimits): void {
  if (width > limits.maxWidth || height > limits.maxHeight) {
    throw new ImageError(
      'too-large',
      `image is too large: ${width}×${height}, at most ${limits.maxWidth}×${limits.maxHeight}`,
    );
  }
}

/** Type and declared size of an image within the limits; throws ImageError otherwise. Reads headers only. */
export function checkImageHeader(
  data: Uint8Array,
  limits: ImageLimits,
): { mime: string; width: number; height: number } {
  const mime = sniffImageType(data);
  const size = mime ? declaredSize(data) : null;
  if (!mime || !size || size.width < 1 || size.height < 1)
    throw new ImageError('unsupported', 'the data is not an image of a supported type (PNG, JPEG, GIF, BMP)');
  checkSize(size.width, size.height, limits);
  return { mime, ...size };
}

const PNG_CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/**
 * pngjs bounds the inflated pixel data by the declared size, except for interlaced images: there a megabyte of
 * zeros would inflate to a gigabyte. Their data is inflated once with that bound first.
 */
function checkInterlacedPng(data: Buffer, width: number, height: number): void {
  const compressed: Buffer[] = [];
  let interlaced = false;
  let bitsPerPixel = 32;
  for (let at = 8; at + 8 <= data.length;) {
    const length = data.readUInt32BE(at);
    const type = data.toString('latin1', at + 4, at + 8);
    const body = data.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR' && body.length >= 13) {
      bitsPerPixel = body[8] * (PNG_CHANNELS[body[9]] ?? 4);
      interlaced = body[12] === 1;
    } else if (type === 'IDAT') compressed.push(body);
    at += 12 + length;
  }
  if (!interlaced) return;
  // Adam7 has about 15/8 as many rows as the image, each with a filter byte and at most one byte of padding.
  const bound = Math.ceil((width * bitsPerPixel) / 8) * height + 4 * height + 64;
  try {
    zlib.inflateSync(Buffer.concat(compressed), { maxOutputLength: bound });
  } catch {
    throw new ImageError('too-large', 'the image holds more data than its size allows');
  }
}

/**
 * Decodes PNG, JPEG, GIF (its first frame) or BMP within the limits; throws ImageError for anything else, and
 * other errors for corrupt data. CPU-heavy: run it off the main thread.
 */
export async function decodeImage(
  data: Buffer,
  limits: ImageLimits = { maxWidth: 16384, maxHeight: 16384 },
): Promise<JimpInstance> {
  const { mime, width, height } = checkImageHeader(data, limits);
  if (mime === 'image/png') checkInterlacedPng(data, width, height);
  if (mime === 'image/gif') {
    // jimp decodes the first frame into a screen-sized bitmap, but the frame's own size is what it allocates.
    const { GifReader } = require('omggif') as { GifReader: new (data: Uint8Array) => GifFrames };
    const frame = new GifReader(data).frameInfo(0);
    checkSize(frame.x + frame.width, frame.y + frame.height, { maxWidth: width, maxHeight: height });
  }
  const { Jimp } = jimp();
  const format = new Jimp().formats.find((f) => f.mime === mime);
  if (!format?.decode) throw new ImageError('unsupported', `cannot decode ${mime}`);
  const options = { maxResolutionInMP: (limits.maxWidth * limits.maxHeight) / 1e6, maxMemoryUsageInMB: 512 };
  const bitmap = (await format.decode(data, options as never)) as { width: number; height: number };
  checkSize(bitmap.width, bitmap.height, limits);
  return new Jimp(bitmap as never) as unknown as JimpInstance;
}
