// The id a symbol server knows a Portable PDB by (github.com/dotnet/runtime, PortablePdb-Metadata.md; the SSQP key
// of github.com/dotnet/symstore): the GUID of the #Pdb stream's PDB id, as 32 lower-case hex digits in GUID order.
import { BadRequestError } from '../../domain/errors.ts';

const METADATA_MAGIC = 0x424a5342; // "BSJB"

const invalid = (why: string) => new BadRequestError(`invalid Portable PDB file: ${why}`);

function need(bytes: Buffer, end: number): void {
  if (end > bytes.length) throw invalid('it is truncated');
}

/** The PDB's id, or 400 when the bytes are not a Portable PDB with a #Pdb stream. */
export function portablePdbId(bytes: Buffer): string {
  need(bytes, 16);
  if (bytes.readUInt32LE(0) !== METADATA_MAGIC) throw invalid('wrong magic number');
  const versionLength = bytes.readInt32LE(12);
  if (versionLength < 0) throw invalid('negative version length');
  let at = 16 + versionLength + 2;
  need(bytes, at + 2);
  const streams = bytes.readUInt16LE(at);
  at += 2;
  for (let i = 0; i < streams; i++) {
    need(bytes, at + 8);
    const offset = bytes.readUInt32LE(at);
    at += 8;
    const end = bytes.indexOf(0, at);
    if (end < 0) throw invalid('a stream name is not terminated');
    const name = bytes.toString('latin1', at, end);
    at += Math.floor((end - at) / 4 + 1) * 4;
    if (name !== '#Pdb') continue;
    need(bytes, offset + 16);
    const guid = bytes.subarray(offset, offset + 16);
    const data1 = guid.readUInt32LE(0).toString(16).padStart(8, '0');
    const data2 = guid.readUInt16LE(4).toString(16).padStart(4, '0');
    const data3 = guid.readUInt16LE(6).toString(16).padStart(4, '0');
    return `${data1}${data2}${data3}${guid.subarray(8).toString('hex')}`;
  }
  throw invalid('it has no #Pdb stream');
}
