// Cargo's registry index as the sparse protocol serves it (RFC 2789; Cargo's "Index format"): `config.json` naming
// the download and API addresses, and one file per crate at a path made from its lower-case name, one JSON line per
// version in publish order with its dependencies, features, checksum and yanked flag.
import type { CargoCrateRows } from '../../db/cargo.repository.ts';
import type { CrateMetadata } from './crate-metadata.ts';

/** The index path of a crate: `1/a`, `2/ab`, `3/a/abc`, `ab/cd/abcd…` (lower case). */
export function indexPath(name: string): string {
  const lower = name.toLowerCase();
  if (lower.length <= 2) return `${lower.length}/${lower}`;
  if (lower.length === 3) return `3/${lower[0]}/${lower}`;
  return `${lower.slice(0, 2)}/${lower.slice(2, 4)}/${lower}`;
}

export interface RegistryConfig {
  dl: string;
  api: string;
  'auth-required': boolean;
}

/** `auth-required` makes cargo send its token on every index read and download (a private owner's registry). */
export function registryConfig(registryUrl: string, authRequired: boolean): RegistryConfig {
  return { dl: `${registryUrl}/api/v1/crates`, api: registryUrl, 'auth-required': authRequired };
}

/** Features using `dep:` or `?/` go in `features2` with `v: 2`, so that cargo before 1.60 skips the version. */
function splitFeatures(features: Record<string, string[]>) {
  const plain: Record<string, string[]> = {};
  const extended: Record<string, string[]> = {};
  for (const [name, enables] of Object.entries(features)) {
    const isNew = enables.some((item) => item.startsWith('dep:') || item.includes('?/'));
    (isNew ? extended : plain)[name] = enables;
  }
  return { plain, extended: Object.keys(extended).length > 0 ? extended : null };
}

function readMetadata(json: string): Partial<CrateMetadata> {
  try {
    const parsed: unknown = JSON.parse(json);
    return parsed && typeof parsed === 'object' ? (parsed as Partial<CrateMetadata>) : {};
  } catch {
    return {};
  }
}

/** The crate's index file: one line per version, oldest first. */
export function indexFile(rows: CargoCrateRows): string {
  const lines = rows.versions.map((row) => {
    const metadata = readMetadata(row.metadataJson);
    const { plain, extended } = splitFeatures(metadata.features ?? {});
    return JSON.stringify({
      name: rows.name,
      vers: row.version,
      deps: metadata.dependencies ?? [],
      cksum: row.sha256,
      features: plain,
      yanked: row.yanked,
      ...(metadata.links ? { links: metadata.links } : {}),
      ...(extended ? { v: 2, features2: extended } : {}),
      ...(metadata.rust_version ? { rust_version: metadata.rust_version } : {}),
    });
  });
  return `${lines.join('\n')}\n`;
}
