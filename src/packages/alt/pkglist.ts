// ALT's pkglist (apt-rpm): the main rpm header of every package, one after another, each with the tags genpkglist
// adds so apt knows where and what the file is (Forgejo: services/packages/alt, the CRPMTAG_* tags of apt-rpm's
// genpkglist): its name, size, MD5 and BLAKE2b digests and the RPMS.{component} folder it is in. The header is
// laid out anew without the immutable region, which would no longer cover every entry.
import { int32Entry, readHeaderEntries, type RawEntry, stringEntry, writeHeader } from '../rpm/rpm-header-entries.ts';

/** The component every package of a repository is in (Forgejo has one: "classic"). */
export const COMPONENT = 'classic';

const CRPMTAG = {
  fileName: 1000000,
  fileSize: 1000001,
  md5: 1000005,
  blake2b: 1000009,
  directory: 1000010,
} as const;
const REGION_TAGS = [61, 62, 63];
/** What a header of the stored package must not bring: regions, and the tags written here. */
const DROPPED: ReadonlySet<number> = new Set([...REGION_TAGS, ...Object.values(CRPMTAG)]);

export interface PkglistPackage {
  /** The package's main header, as uploaded (from its magic to its end). */
  header: Buffer;
  fileName: string;
  size: number;
  md5: string;
  blake2b: string;
}

/** One package's entry of the pkglist. */
export function pkglistHeader(pkg: PkglistPackage): Buffer {
  const entries: RawEntry[] = readHeaderEntries(pkg.header, 0, DROPPED);
  entries.push(
    stringEntry(CRPMTAG.fileName, pkg.fileName),
    int32Entry(CRPMTAG.fileSize, pkg.size),
    stringEntry(CRPMTAG.md5, pkg.md5),
    stringEntry(CRPMTAG.blake2b, pkg.blake2b),
    stringEntry(CRPMTAG.directory, `RPMS.${COMPONENT}`),
  );
  return writeHeader(entries);
}

/** Headers written between two turns of the event loop, so a large rebuild does not hold requests back. */
const BATCH = 100;

/** The pkglist of these packages. */
export async function pkglist(packages: readonly PkglistPackage[]): Promise<Buffer> {
  const headers: Buffer[] = [];
  for (let i = 0; i < packages.length; i++) {
    if (i > 0 && i % BATCH === 0) await new Promise((resolve) => setImmediate(resolve));
    headers.push(pkglistHeader(packages[i]!));
  }
  return Buffer.concat(headers);
}
