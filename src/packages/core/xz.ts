// xz compression of a whole index file (Debian's Packages.xz, ALT's pkglist.classic.xz) through liblzma, on its
// own threads. Preset 2: an index compresses almost as well as at liblzma's default 6, in a fraction of the time.
import { compress } from 'lzma-native';

const XZ_PRESET = 2;

export function xzCompress(data: Buffer): Promise<Buffer> {
  return compress(data, { preset: XZ_PRESET });
}
