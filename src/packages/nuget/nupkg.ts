// What a pushed .nupkg or .snupkg holds for the registry (Forgejo: modules/packages/nuget): the .nuspec at the
// archive's root, and in a symbol package its Portable PDB files. An archive that is malformed, hostile or of the
// wrong kind answers 400.
import path from 'node:path';
import { BadRequestError } from '../../domain/errors.ts';
import type { UploadedZip } from '../core/uploaded-zip.ts';
import { type Nuspec, parseNuspec } from './nuspec.ts';
import { portablePdbId } from './portable-pdb.ts';

const MAX_NUSPEC_BYTES = 3 * 1024 * 1024;
const MAX_PDB_BYTES = 64 * 1024 * 1024;
const MAX_PDB_TOTAL_BYTES = 256 * 1024 * 1024;
/** What a symbol package may hold beside its PDB files: its manifest and the package's own parts. */
const SYMBOL_PACKAGE_PARTS = new Set(['.nuspec', '.xml', '.psmdcp', '.rels', '.p7s']);

export interface NuspecFile {
  nuspec: Nuspec;
  /** The manifest's bytes, served as `<id>.nuspec`. */
  bytes: Buffer;
}

export interface PdbFile {
  /** The file name, lower-cased as symbol clients ask for it. */
  name: string;
  /** The PDB id, lower-case hex. */
  id: string;
  bytes: Buffer;
}

const tooLarge = (what: string, maxBytes: number) => `${what} is too large: at most ${maxBytes} bytes`;

/** The manifest at the archive's root; a package without one answers 400. */
export async function readNuspec(archive: UploadedZip): Promise<NuspecFile> {
  const entry = archive.files().find((item) => !item.name.includes('/') && item.name.toLowerCase().endsWith('.nuspec'));
  if (!entry) throw new BadRequestError('the package has no .nuspec file');
  const bytes = await archive.read(entry.name, MAX_NUSPEC_BYTES, tooLarge('the nuspec file', MAX_NUSPEC_BYTES));
  return { nuspec: parseNuspec(bytes.toString('utf8')), bytes };
}

/** `.rels` of `_rels/.rels` too (path.extname sees a dot file as having none). */
function extensionOf(name: string): string {
  const base = path.posix.basename(name);
  const dot = base.lastIndexOf('.');
  return dot < 0 ? '' : base.slice(dot).toLowerCase();
}

/** The Portable PDB files of a symbol package; other kinds of files, or none of these, answer 400. */
export async function readPdbFiles(archive: UploadedZip): Promise<PdbFile[]> {
  const pdbs: PdbFile[] = [];
  let remaining = MAX_PDB_TOTAL_BYTES;
  for (const entry of archive.files()) {
    const extension = extensionOf(entry.name);
    if (SYMBOL_PACKAGE_PARTS.has(extension)) continue;
    if (extension !== '.pdb') throw new BadRequestError(`a symbol package holds PDB files only: ${entry.name}`);
    const bound = Math.min(MAX_PDB_BYTES, remaining);
    const bytes = await archive.read(entry.name, bound, tooLarge('the PDB files', bound));
    remaining -= bytes.length;
    pdbs.push({ name: path.posix.basename(entry.name).toLowerCase(), id: portablePdbId(bytes), bytes });
  }
  if (pdbs.length === 0) throw new BadRequestError('the symbol package has no PDB files');
  return pdbs;
}
