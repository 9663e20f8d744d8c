// Signs an .rpm as rpmsign --addsign does for the header: an OpenPGP signature of the main header (from its magic to
// its end) in the signature header's RSA header tag, so that dnf with gpgcheck=1 and `rpmkeys --checksig` trust the
// package with the owner's key (Forgejo signs uploads the same way: modules/packages/rpm). The signature header is
// written anew, its region tag and trailer around every entry as rpm writes them; the main header and the payload
// are untouched, so the digests of the signature header still hold.
import { HEADER_TYPE, readHeaderEntries, writeHeader } from './rpm-header-entries.ts';

const LEAD_SIZE = 96;
const REGION_TAG = 62;
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

/** Signs the main header's bytes: a binary detached OpenPGP signature. */
export type HeaderSigner = (header: Buffer) => Promise<Uint8Array>;

/**
 * The package's leading bytes (lead and both headers, as rpm-header.ts rpmHeadersLength measures them) with a
 * signature of the main header in place of any the package had.
 */
export async function signRpmHeaders(headers: Buffer, mainStart: number, sign: HeaderSigner): Promise<Buffer> {
  const signature = Buffer.from(await sign(headers.subarray(mainStart)));
  const entries = readHeaderEntries(headers, LEAD_SIZE, DROPPED);
  entries.push({ tag: RSA_HEADER_TAG, type: HEADER_TYPE.bin, count: signature.length, data: signature });
  const header = writeHeader(entries, REGION_TAG);
  // The signature header is padded to 8 bytes in the file.
  const padding = Buffer.alloc((8 - (header.length % 8)) % 8);
  return Buffer.concat([headers.subarray(0, LEAD_SIZE), header, padding, headers.subarray(mainStart)]);
}
