// PostgreSQL for tests that spawn processes on one database: a fresh database on TEST_DATABASE_URL's server, or a
// throwaway cluster of scripts/pg-cluster.sh (initdb and pg_ctl on PATH) when that is not set.
import { execFileSync, spawnSync } from 'node:child_process';
import path from 'node:path';
import { freshPostgresDatabase } from './template-database.ts';

const clusterScript = path.resolve(__dirname, '../../scripts/pg-cluster.sh');

/** Why no PostgreSQL can be had, or null. */
export function postgresUnavailable(): string | null {
  if (process.env.TEST_DATABASE_URL) return null;
  const found = spawnSync('sh', ['-c', 'command -v initdb && command -v pg_ctl'], { stdio: 'ignore' }).status === 0;
  return found ? null : 'no PostgreSQL (set TEST_DATABASE_URL, or put initdb and pg_ctl on PATH)';
}

/** An empty database, and how to drop it (with the cluster kept under `workDir` when one was started). */
export async function startPostgres(workDir: string): Promise<{ url: string; drop: () => Promise<void> }> {
  if (process.env.TEST_DATABASE_URL) return freshPostgresDatabase(process.env.TEST_DATABASE_URL, { empty: true });
  const clusterDir = path.join(workDir, 'pg');
  const url = execFileSync('bash', [clusterScript, 'start', clusterDir], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .pop()!;
  return { url, drop: async () => void execFileSync('bash', [clusterScript, 'stop', clusterDir], { stdio: 'ignore' }) };
}
