// Signs an .rpm as rpmsign --addsign does for the header: an OpenPGP signature of the main header (from its magic to
// its end) in the signature header's RSA header tag, so that dnf with gpgcheck=1 and `rpmkeys --checksig` trust the
// package with the owner's key (Forgejo signs uploads the same way: modules/packages/rpm). The signature header is
// written anew, its region tag and trailer around every entry as rpm writes them; the main header and the payload
// are untouched, so the digests of the signature header still hold.
import { BadRequestError } from '../../domain/errors.ts';

const LEAD_SIZE = 96;
const HEADER_MAGIC = 0x8eade801;
const REGION_TAG = 62;
const TYPE_BIN = 7;
const TYPE_STRING = 6;
const TYPE_STRING_ARRAY = 8;
const TYPE_I18N = 9;
/** The header-and-payload signatures this signing replaces or cannot keep, and the reserved space it fills. */
const DROPPED = new Set([
  REGION_TAG,
  267 /* DSA */,
  268 /* RSA */,
  1002 /* PGP */,
  1005 /* GPG */,
  1008 /* RESERVED */,
]);
const RSA_HEADER_TAG = 268;
const WIDTH: Readonly<Record<number, number>> = { 1: 1, 2: 1, 3: 2, 4: 4, 5: 8 };

interface RawEntry {
  tag: number;
  type: number;
  count: number;
  data: Buffer;
}

/** Signs the main header's bytes: a binary detached OpenPGP signature. */
export type HeaderSigner = (header: Buffer) => Promise<Uint8Array>;

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

function readEntries(headers: Buffer, start: number): RawEntry[] {
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
    if (DROPPED.has(tag)) continue;
    const length = dataLength(store, type, offset, n);
    if (offset + length > store.length)
      throw new BadRequestError('not a valid rpm package: a tag points past its header');
    entries.push({ tag, type, count: n, data: store.subarray(offset, offset + length) });
  }
  return entries;
}

function writeHeader(entries: RawEntry[]): Buffer {
  const all = [...entries].sort((a, b) => a.tag - b.tag);
  const total = all.length + 1;
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
    const at = 16 + (i + 1) * 16;
    index.writeUInt32BE(entry.tag, at);
    index.writeUInt32BE(entry.type, at + 4);
    index.writeUInt32BE(offset, at + 8);
    index.writeUInt32BE(entry.count, at + 12);
  });
  // The region: its entry first, its trailer last, the trailer's offset counting back over every index entry.
  const trailer = Buffer.alloc(16);
  trailer.writeUInt32BE(REGION_TAG, 0);
  trailer.writeUInt32BE(TYPE_BIN, 4);
  trailer.writeInt32BE(-total * 16, 8);
  trailer.writeUInt32BE(16, 12);
  const trailerOffset = place(trailer, 4);
  index.writeUInt32BE(HEADER_MAGIC, 0);
  index.writeUInt32BE(total, 8);
  index.writeUInt32BE(size, 12);
  index.writeUInt32BE(REGION_TAG, 16);
  index.writeUInt32BE(TYPE_BIN, 20);
  index.writeUInt32BE(trailerOffset, 24);
  index.writeUInt32BE(16, 28);
  const header = Buffer.concat([index, ...parts]);
  const padding = (8 - (header.length % 8)) % 8;
  return Buffer.concat([header, Buffer.alloc(padding)]);
}

/**
 * The package's leading bytes (lead and both headers, as rpm-header.ts rpmHeadersLength measures them) with a
 * signature of the main header in place of any the package had.
 */
export async function signRpmHeaders(headers: Buffer, mainStart: number, sign: HeaderSigner): Promise<Buffer> {
  const signature = Buffer.from(await sign(headers.subarray(mainStart)));
  const entries = readEntries(headers, LEAD_SIZE);
  entries.push({ tag: RSA_HEADER_TAG, type: TYPE_BIN, count: signature.length, data: signature });
  return Buffer.concat([headers.subarray(0, LEAD_SIZE), writeHeader(entries), headers.subarray(mainStart)]);
}
