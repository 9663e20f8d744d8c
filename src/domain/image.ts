// Image decoding without jimp's content sniffing: jimp finds the format through a dynamic import of `file-type`,
// which some module loaders (jest's among them) refuse. The formats Anvil accepts are told apart by their
// leading bytes instead.
import type { JimpInstance } from 'jimp';

type JimpModule = typeof import('jimp');
let jimpModule: JimpModule | undefined;
/** Loaded on first use: the image codecs are heavy and most processes never touch an image. */
export function jimp(): JimpModule {
  jimpModule ??= require('jimp') as JimpModule;
  return jimpModule;
}

const SIGNATURES: [string, number[]][] = [
  ['image/png', [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
  ['image/jpeg', [0xff, 0xd8, 0xff]],
  ['image/gif', [0x47, 0x49, 0x46, 0x38]],
  ['image/bmp', [0x42, 0x4d]],
  ['image/tiff', [0x49, 0x49, 0x2a, 0x00]],
  ['image/tiff', [0x4d, 0x4d, 0x00, 0x2a]],
];

export function sniffImageType(data: Buffer): string | null {
  return SIGNATURES.find(([, bytes]) => data.length >= bytes.length && bytes.every((b, i) => data[i] === b))?.[0] ?? null;
}

/** Decodes PNG, JPEG, GIF, BMP or TIFF; throws for anything else or for corrupt data. */
export async function decodeImage(data: Buffer): Promise<JimpInstance> {
  const mime = sniffImageType(data);
  if (!mime) throw new Error('not an image of a supported type');
  const { Jimp } = jimp();
  const format = new Jimp().formats.find((f) => f.mime === mime);
  if (!format?.decode) throw new Error(`cannot decode ${mime}`);
  const bitmap = await format.decode(data);
  return new Jimp(bitmap as never) as unknown as JimpInstance;
}
