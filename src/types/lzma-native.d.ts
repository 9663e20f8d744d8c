// The part of lzma-native (bindings to liblzma) the package indexes use (src/packages/core/xz.ts): xz compression of a whole buffer.
declare module 'lzma-native' {
  export interface CompressOptions {
    /** 0 (fastest) to 9 (smallest); liblzma's default is 6. */
    preset?: number;
  }
  /** The .xz file of the bytes. */
  export function compress(data: Buffer, options?: CompressOptions): Promise<Buffer>;
}
