// The committed migrations of one provider (prisma/migrations/<provider>/<name>/migration.sql), in name order.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export interface MigrationFile {
  readonly name: string;
  readonly sql: string;
  /** Prisma's checksum: SHA-256 of the script, hex. */
  readonly checksum: string;
}

export function readMigrationFiles(dir: string): MigrationFile[] {
  const entries = fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }) : [];
  const files = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = fs.readFileSync(path.join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
  if (files.length === 0) throw new Error(`no migrations found in ${dir}`);
  return files;
}
