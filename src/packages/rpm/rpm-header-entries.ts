// An rpm header's entries as raw bytes, for the code that writes headers anew (the signature header rpm-sign.ts
// writes, the pkglist headers of the ALT repository): read each entry's type, count and data out of a header, and
// lay a list of entries out again as rpm does (sorted by tag, each value aligned to its width, an optional region
// tag whose trailer counts back over every entry).
import { BadRequestError } from '../../domain/errors.ts';

const HEADER_MAGIC = 0x8eade801;
const TYPE_BIN = 7;
const TYPE_STRING = 6;
const TYPE_STRING_ARRAY = 8;
const TYPE_I18N = 9;
const WIDTH: Readonly<Record<number, number>> = { 1: 1, 2: 1, 3: 2, 4: 4, 5: 8 };

export const HEADER_TYPE = { int32: 4, string: TYPE_STRING, bin: TYPE_BIN } as const;

export interface RawEntry {
  tag: number;
  type: number;
  count: number;
  data: Buffer;
}

function dataLength(store: Buffer, type: number, offset: number, count: number): number {
  const width = WIDTH[type];
  if (width !== undefined) return width * count;
  if (type === TYPE_BIN) return count;
  if (type === TYPE_STRING || type === TYPE_STRING_ARRAY || type === TYPE_I18N) {
    let at = offset;
    for (let i = 0; i < (type === TYPE_STRING ? 1 : count); i++) {
      const end = store.indexOf(0, at);
      if (end < 0) throw new BadRequestError('not a valid rpm package: an unterminated string');
      at = end + 1;
    }
    return at - offset;
  }
  throw new BadRequestError('not a valid rpm package: an unknown tag type');
}

/** The entries of the header starting at `start`, but those whose tag is in `drop`. */
export function readHeaderEntries(headers: Buffer, start: number, drop: ReadonlySet<number>): RawEntry[] {
  const count = headers.readUInt32BE(start + 8);
  const storeStart = start + 16 + count * 16;
  const store = headers.subarray(storeStart, storeStart + headers.readUInt32BE(start + 12));
  const entries: RawEntry[] = [];
  for (let i = 0; i < count; i++) {
    const at = start + 16 + i * 16;
    const [tag, type, offset, n] = [0, 4, 8, 12].map((field) => headers.readUInt32BE(at + field)) as [
      number,
      number,
      number,
      number,
    ];
    if (drop.has(tag)) continue;
    const length = dataLength(store, type, offset, n);
    if (offset + length > store.length)
      throw new BadRequestError('not a valid rpm package: a tag points past its header');
    entries.push({ tag, type, count: n, data: store.subarray(offset, offset + length) });
  }
  return entries;
}

/** An entry holding one string. */
export function stringEntry(tag: number, value: string): RawEntry {
  return { tag, type: TYPE_STRING, count: 1, data: Buffer.from(`${value}\0`) };
}

/** An entry holding one 32-bit number. */
export function int32Entry(tag: number, value: number): RawEntry {
  const data = Buffer.alloc(4);
  data.writeUInt32BE(value >>> 0);
  return { tag, type: HEADER_TYPE.int32, count: 1, data };
}

/** The header (intro, index, store; unpadded) of these entries, with a region tag around them when given. */
export function writeHeader(entries: readonly RawEntry[], regionTag?: number): Buffer {
  const all = [...entries].sort((a, b) => a.tag - b.tag);
  const first = regionTag === undefined ? 0 : 1;
  const total = all.length + first;
  const index = Buffer.alloc(16 + total * 16);
  const parts: Buffer[] = [];
  let size = 0;
  const place = (data: Buffer, align: number): number => {
    const pad = (align - (size % align)) % align;
    if (pad) parts.push(Buffer.alloc(pad));
    size += pad;
    const offset = size;
    parts.push(data);
    size += data.length;
    return offset;
  };
  all.forEach((entry, i) => {
    const offset = place(entry.data, WIDTH[entry.type] ?? 1);
    const at = 16 + (i + first) * 16;
    index.writeUInt32BE(entry.tag, at);
    index.writeUInt32BE(entry.type, at + 4);
    index.writeUInt32BE(offset, at + 8);
    index.writeUInt32BE(entry.count, at + 12);
  });
  if (regionTag !== undefined) {
    // The region: its entry first, its trailer last, the trailer's offset counting back over every index entry.
    const trailer = Buffer.alloc(16);
    trailer.writeUInt32BE(regionTag, 0);
    trailer.writeUInt32BE(TYPE_BIN, 4);
    trailer.writeInt32BE(-total * 16, 8);
    trailer.writeUInt32BE(16, 12);
    const trailerOffset = place(trailer, 4);
    index.writeUInt32BE(regionTag, 16);
    index.writeUInt32BE(TYPE_BIN, 20);
    index.writeUInt32BE(trailerOffset, 24);
    index.writeUInt32BE(16, 28);
  }
  index.writeUInt32BE(HEADER_MAGIC, 0);
  index.writeUInt32BE(total, 8);
  index.writeUInt32BE(size, 12);
  return Buffer.concat([index, ...parts]);
}
