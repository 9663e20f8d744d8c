// What a dump archive holds and under which names (a gzipped tar, Forgejo's `dump` layout in spirit):
//   anvil-dump.json              the manifest, first: format, Anvil version, database kind, time
//   app.ini                      the data directory's app.ini, when there is one
//   anvil-db.sqlite | anvil-db.pgdump   the database snapshot (SQLite file, or pg_dump's custom format)
//   repos/…                      the repositories root
//   packages/…                   package blobs
//   data/…                       the rest of the data directory: avatars, the generated secret key, …
import type { DatabaseTarget } from '../infra/database/target.ts';

export const MANIFEST_ENTRY = 'anvil-dump.json';
export const APP_INI_ENTRY = 'app.ini';
export const DATABASE_ENTRY: Record<DatabaseTarget['provider'], string> = {
  sqlite: 'anvil-db.sqlite',
  postgresql: 'anvil-db.pgdump',
};
export const REPOSITORIES_FOLDER = 'repos';
export const PACKAGES_FOLDER = 'packages';
export const DATA_FOLDER = 'data';

const FORMAT = 'anvil-dump';
const FORMAT_VERSION = 1;

export interface DumpManifest {
  format: typeof FORMAT;
  formatVersion: number;
  anvilVersion: string;
  createdAt: string;
  database: DatabaseTarget['provider'];
}

export function newManifest(anvilVersion: string, database: DatabaseTarget['provider'], createdAt: Date): DumpManifest {
  return { format: FORMAT, formatVersion: FORMAT_VERSION, anvilVersion, createdAt: createdAt.toISOString(), database };
}

export function parseManifest(text: string): DumpManifest {
  let value: Partial<DumpManifest>;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`${MANIFEST_ENTRY} is not JSON`);
  }
  if (value.format !== FORMAT) throw new Error('this is not an Anvil dump');
  if (value.formatVersion !== FORMAT_VERSION)
    throw new Error(`this dump has format version ${value.formatVersion}; this Anvil reads version ${FORMAT_VERSION}`);
  if (value.database !== 'sqlite' && value.database !== 'postgresql')
    throw new Error(`${MANIFEST_ENTRY} names no database kind`);
  return value as DumpManifest;
}
