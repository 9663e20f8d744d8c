// Runs PostgreSQL's client programs (pg_dump, pg_restore) from PATH against a database URL. The password travels
// in the environment, not on the command line where any local user could read it, and Prisma's own URL
// parameters, which libpq refuses, are left out.
import { execFile } from 'node:child_process';

const PRISMA_ONLY_PARAMETERS = [
  'schema',
  'connection_limit',
  'pool_timeout',
  'pgbouncer',
  'statement_cache_size',
  'socket_timeout',
];

export function libpqConnection(url: string): { dbname: string; env: Record<string, string> } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  for (const name of PRISMA_ONLY_PARAMETERS) parsed.searchParams.delete(name);
  return { dbname: parsed.toString(), env: password ? { PGPASSWORD: password } : {} };
}

export class PostgresToolError extends Error {}

/** Runs `program` with `--dbname` set to the URL's database; rejects with the program's own message. */
export function runPostgresTool(program: string, args: string[], url: string): Promise<void> {
  const { dbname, env } = libpqConnection(url);
  return new Promise((resolve, reject) => {
    execFile(
      program,
      [...args, `--dbname=${dbname}`],
      { env: { ...process.env, ...env }, maxBuffer: 16 * 1024 ** 2 },
      (error, _stdout, stderr) => {
        if (!error) return resolve();
        const reason =
          (error as NodeJS.ErrnoException).code === 'ENOENT'
            ? `${program} was not found on PATH (install PostgreSQL's client programs)`
            : `${program} failed: ${stderr.trim() || error.message}`;
        reject(new PostgresToolError(reason));
      },
    );
  });
}
