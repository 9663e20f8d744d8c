// The binary layout of an .rpm file (the RPM file format: a 96-byte lead, the signature header padded to 8 bytes,
// the main header, then the compressed payload). A header is an index of 16-byte entries (tag, type, offset, count)
// over a data store; this file reads that layout into tag → value and knows nothing of what the tags mean.
import { BadRequestError } from '../../domain/errors.ts';

const LEAD_SIZE = 96;
const LEAD_MAGIC = 0xedabeedb;
const HEADER_MAGIC = 0x8eade801;
const INTRO_SIZE = 16;
const ENTRY_SIZE = 16;
/** rpm's own bounds (lib/header.c hdrchkTags, hdrchkData), so a hostile header cannot ask for more. */
const MAX_ENTRIES = 0xffff;
const MAX_STORE = 256 * 1024 * 1024;

const TYPE = { char: 1, int8: 2, int16: 3, int32: 4, int64: 5, string: 6, bin: 7, stringArray: 8, i18n: 9 } as const;

export type TagValue = string | string[] | number[] | Buffer;

export interface RpmHeader {
  readonly tags: ReadonlyMap<number, TagValue>;
  /** Where the header (its intro included) starts and ends in the file: primary.xml's header-range. */
  readonly start: number;
  readonly end: number;
}

export interface RpmHeaders {
  signature: RpmHeader;
  main: RpmHeader;
}

const malformed = (why: string) => new BadRequestError(`not a valid rpm package: ${why}`);

/** The size of a header (intro, index and store) starting at `offset`, once the 16-byte intro is there; else null. */
function headerSize(data: Buffer, offset: number): number | null {
  if (data.length < offset + INTRO_SIZE) return null;
  if (data.readUInt32BE(offset) !== HEADER_MAGIC) throw malformed('bad header magic');
  const entries = data.readUInt32BE(offset + 8);
  const store = data.readUInt32BE(offset + 12);
  if (entries === 0 || entries > MAX_ENTRIES || store > MAX_STORE) throw malformed('header out of bounds');
  return INTRO_SIZE + entries * ENTRY_SIZE + store;
}

/**
 * How many leading bytes of the file hold the lead and both headers: a number once the prefix tells it (read on
 * until then), null while it does not yet. Throws 400 when the prefix is no rpm.
 */
export function rpmHeadersLength(prefix: Buffer): number | null {
  if (prefix.length < LEAD_SIZE) return null;
  if (prefix.readUInt32BE(0) !== LEAD_MAGIC) throw malformed('bad lead magic');
  const signature = headerSize(prefix, LEAD_SIZE);
  if (signature === null) return null;
  const mainStart = LEAD_SIZE + align8(signature);
  const main = headerSize(prefix, mainStart);
  return main === null ? null : mainStart + main;
}

function align8(size: number): number {
  return Math.ceil(size / 8) * 8;
}

/** The lead's signature header and main header, from the file's first rpmHeadersLength() bytes. */
export function readRpmHeaders(data: Buffer): RpmHeaders {
  const length = rpmHeadersLength(data);
  if (length === null || data.length < length) throw malformed('the file ends inside its headers');
  const signature = readHeader(data, LEAD_SIZE);
  const main = readHeader(data, LEAD_SIZE + align8(signature.end - LEAD_SIZE));
  return { signature, main };
}

function readHeader(data: Buffer, start: number): RpmHeader {
  const count = data.readUInt32BE(start + 8);
  const storeSize = data.readUInt32BE(start + 12);
  const storeStart = start + INTRO_SIZE + count * ENTRY_SIZE;
  const store = data.subarray(storeStart, storeStart + storeSize);
  const tags = new Map<number, TagValue>();
  for (let i = 0; i < count; i++) {
    const at = start + INTRO_SIZE + i * ENTRY_SIZE;
    const tag = data.readUInt32BE(at);
    const value = readValue(store, data.readUInt32BE(at + 4), data.readUInt32BE(at + 8), data.readUInt32BE(at + 12));
    if (value !== undefined) tags.set(tag, value);
  }
  return { tags, start, end: storeStart + storeSize };
}

function readValue(store: Buffer, type: number, offset: number, count: number): TagValue | undefined {
  if (offset > store.length) throw malformed('a tag points past its header');
  const width = { [TYPE.char]: 1, [TYPE.int8]: 1, [TYPE.int16]: 2, [TYPE.int32]: 4, [TYPE.int64]: 8 }[type];
  if (width !== undefined) {
    if (offset + width * count > store.length) throw malformed('a tag points past its header');
    return Array.from({ length: count }, (_, i) => readInteger(store, offset + i * width, width));
  }
  if (type === TYPE.bin) {
    if (offset + count > store.length) throw malformed('a tag points past its header');
    return store.subarray(offset, offset + count);
  }
  if (type === TYPE.string) return readStrings(store, offset, 1)[0];
  if (type === TYPE.stringArray || type === TYPE.i18n) return readStrings(store, offset, count);
  return undefined;
}

function readInteger(store: Buffer, at: number, width: number): number {
  if (width === 1) return store.readUInt8(at);
  if (width === 2) return store.readUInt16BE(at);
  if (width === 4) return store.readUInt32BE(at);
  return Number(store.readBigUInt64BE(at));
}

function readStrings(store: Buffer, offset: number, count: number): string[] {
  if (count > store.length) throw malformed('a tag points past its header');
  const strings: string[] = [];
  let at = offset;
  for (let i = 0; i < count; i++) {
    const end = store.indexOf(0, at);
    if (end < 0) throw malformed('an unterminated string');
    strings.push(store.toString('utf8', at, end));
    at = end + 1;
  }
  return strings;
}
